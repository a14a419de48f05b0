import { AuthConfig, authConfigFromEnv } from '@agentwatch/auth';
import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';

export interface CloudApiConfig {
  port: number;
  database: DatabaseConfig;
  kafka: KafkaSettings;
  auth: AuthConfig;
  rateLimit: { rps: number; burst: number };
}

export function cloudApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CloudApiConfig {
  return {
    port: Number(env.CLOUD_API_PORT ?? 8080),
    database: databaseConfigFromEnv(env),
    kafka: kafkaSettingsFromEnv('agentwatch-cloud-api', env),
    auth: authConfigFromEnv(env),
    rateLimit: { rps: Number(env.INGEST_RATE_LIMIT_RPS ?? 200), burst: Number(env.INGEST_RATE_LIMIT_BURST ?? 400) },
  };
}
