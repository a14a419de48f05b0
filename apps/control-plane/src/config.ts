import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { TenancySettings, tenancySettingsFromEnv } from '@agentwatch/tenancy';

export interface ControlPlaneConfig {
  port: number;
  database: DatabaseConfig;
  kafka: KafkaSettings;
  tenancy: TenancySettings;
}

export function controlPlaneConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  const database = databaseConfigFromEnv(env);
  return {
    port: Number(env.CONTROL_PLANE_PORT ?? 8082),
    database,
    kafka: kafkaSettingsFromEnv('agentwatch-control-plane', env),
    tenancy: tenancySettingsFromEnv(env, database.adminUrl),
  };
}
