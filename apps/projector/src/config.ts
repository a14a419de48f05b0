import { CellsSettings } from '@agentwatch/cells';
import { integer, parseConfig, port, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { ServerConfig, serverEnv } from '@agentwatch/http';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { z } from 'zod';

export const projectorConfigSchema = z
  .object({
    ...serverEnv,
    ...databaseEnv,
    ...kafkaEnv,
    PROJECTOR_PORT: port(8083),
    TENANT_DATABASE_POOL_SIZE: integer('a positive integer (connections)', 4, 1, 100),
  })
  .transform((env) => ({
    /** HTTP port of /health, /ready and /metrics. */
    port: env.PROJECTOR_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    database: databaseConfigFromEnv(textVariables(env)),
    cells: {
      role: 'projector' as const,
      rolePassword: env.DATABASE_ROLE_PASSWORD ?? null,
      poolSize: env.TENANT_DATABASE_POOL_SIZE,
      applicationName: 'agentwatch-projector',
    },
    kafka: kafkaSettingsFromEnv('agentwatch-projector', textVariables(env)),
  }));

export interface ProjectorConfig extends ServerConfig {
  database: DatabaseConfig;
  /** Each tenant database's pool: the projector role, DATABASE_ROLE_PASSWORD, TENANT_DATABASE_POOL_SIZE connections. */
  cells: CellsSettings;
  kafka: KafkaSettings;
}

export function projectorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  return parseConfig(projectorConfigSchema, env);
}
