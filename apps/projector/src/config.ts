import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';

export interface ProjectorConfig {
  /** HTTP port of /health and /ready. */
  port: number;
  database: DatabaseConfig;
  kafka: KafkaSettings;
}

export function projectorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  return {
    port: Number(env.PROJECTOR_PORT ?? 8083),
    database: databaseConfigFromEnv(env),
    kafka: kafkaSettingsFromEnv('agentwatch-projector', env),
  };
}
