import { CellsSettings } from '@agentwatch/cells';
import { integer, parseConfig, port, textVariables } from '@agentwatch/config';
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
    TENANT_DATABASE_POOL_SIZE: integer('a positive integer (connections)', 4, 1, 100),
  })
  .transform((env) => ({
    port: env.SCORING_WORKER_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    database: databaseConfigFromEnv(textVariables(env)),
    cells: {
      role: 'projector' as const,
      rolePassword: env.DATABASE_ROLE_PASSWORD ?? null,
      poolSize: env.TENANT_DATABASE_POOL_SIZE,
      applicationName: 'agentwatch-scoring-worker',
    },
    kafka: kafkaSettingsFromEnv('agentwatch-scoring-worker', textVariables(env)),
    llm: llmSettingsFromEnv(textVariables(env)),
  }));

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
