import { CellsSettings, cellsEnv, cellsSettingsOf } from '@agentwatch/cells';
import { parseConfig, port, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { llmEnv, ServerConfig, serverEnv } from '@agentwatch/http';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { LlmSettings, llmSettingsFromEnv } from '@agentwatch/scoring';
import { z } from 'zod';

export const scoringWorkerConfigSchema = z
  .object({
    ...serverEnv,
    ...databaseEnv,
    ...kafkaEnv,
    ...llmEnv,
    SCORING_WORKER_PORT: port(8084),
    ...cellsEnv,
  })
  .transform((env) => {
    const database = databaseConfigFromEnv(textVariables(env));
    return {
      port: env.SCORING_WORKER_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      database,
      cells: cellsSettingsOf('projector', 'agentwatch-scoring-worker', database, env),
      kafka: kafkaSettingsFromEnv('agentwatch-scoring-worker', textVariables(env)),
      llm: llmSettingsFromEnv(textVariables(env)),
    };
  });

export interface ScoringWorkerConfig extends ServerConfig {
  database: DatabaseConfig;
  /** Each tenant database's pool: the projector role, DATABASE_ROLE_PASSWORD, TENANT_DATABASE_POOL_SIZE connections. */
  cells: CellsSettings;
  kafka: KafkaSettings;
  llm: LlmSettings;
}

export function scoringWorkerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringWorkerConfig {
  return parseConfig(scoringWorkerConfigSchema, env);
}
