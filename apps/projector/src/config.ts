import { CellsSettings, cellsEnv, cellsSettingsOf } from '@agentwatch/cells';
import { parseConfig, port, textVariables } from '@agentwatch/config';
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
    ...cellsEnv,
  })
  .transform((env) => {
    const database = databaseConfigFromEnv(textVariables(env));
    return {
      /** HTTP port of /health, /ready and /metrics. */
      port: env.PROJECTOR_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      database,
      cells: cellsSettingsOf('projector', 'agentwatch-projector', database, env),
      kafka: kafkaSettingsFromEnv('agentwatch-projector', textVariables(env)),
    };
  });

export interface ProjectorConfig extends ServerConfig {
  database: DatabaseConfig;
  /** Each tenant database's pool: the projector role, DATABASE_ROLE_PASSWORD, TENANT_DATABASE_POOL_SIZE connections. */
  cells: CellsSettings;
  kafka: KafkaSettings;
}

export function projectorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  return parseConfig(projectorConfigSchema, env);
}
