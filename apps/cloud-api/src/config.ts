import { AuthConfig, authConfigFromEnv, authEnv } from '@agentwatch/auth';
import { CellsSettings, cellsEnv, cellsSettingsOf } from '@agentwatch/cells';
import { integer, parseConfig, port, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { ServerConfig, serverEnv } from '@agentwatch/http';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { z } from 'zod';

export const cloudApiConfigSchema = z
  .object({
    ...serverEnv,
    ...databaseEnv,
    ...kafkaEnv,
    ...authEnv,
    CLOUD_API_PORT: port(8080),
    INGEST_RATE_LIMIT_RPS: integer('a positive integer (requests per second)', 200, 1),
    INGEST_RATE_LIMIT_BURST: integer('a positive integer (requests)', 400, 1),
    ...cellsEnv,
  })
  .transform((env) => {
    const database = databaseConfigFromEnv(textVariables(env));
    return {
      port: env.CLOUD_API_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      database,
      kafka: kafkaSettingsFromEnv('agentwatch-cloud-api', textVariables(env)),
      auth: authConfigFromEnv(textVariables(env)),
      rateLimit: { rps: env.INGEST_RATE_LIMIT_RPS, burst: env.INGEST_RATE_LIMIT_BURST },
      cells: cellsSettingsOf('app', 'agentwatch-cloud-api', database, env),
    };
  });

export interface CloudApiConfig extends ServerConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  auth: AuthConfig;
  rateLimit: { rps: number; burst: number };
  /** Each provisioned tenant's database pool (opened on its first request): the app role, TENANT_DATABASE_POOL_SIZE connections. */
  cells: CellsSettings;
}

export function cloudApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CloudApiConfig {
  return parseConfig(cloudApiConfigSchema, env);
}
