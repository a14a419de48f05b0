import { CellsSettings, cellsEnv, cellsSettingsOf } from '@agentwatch/cells';
import { parseConfig, port, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { llmEnv, ServerConfig, serverEnv } from '@agentwatch/http';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { LlmSettings, llmSettingsFromEnv } from '@agentwatch/scoring';
import { z } from 'zod';

export const scoringApiConfigSchema = z
  .object({
    ...serverEnv,
    ...databaseEnv,
    ...kafkaEnv,
    ...llmEnv,
    SCORING_API_PORT: port(8081),
    ...cellsEnv,
  })
  .transform((env) => {
    const database = databaseConfigFromEnv(textVariables(env));
    return {
      port: env.SCORING_API_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      database,
      kafka: kafkaSettingsFromEnv('agentwatch-scoring-api', textVariables(env)),
      llm: llmSettingsFromEnv(textVariables(env)),
      cells: cellsSettingsOf('app', 'agentwatch-scoring-api', database, env),
    };
  });

export interface ScoringApiConfig extends ServerConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  llm: LlmSettings;
  /** Each provisioned tenant's database pool (opened on its first request): the app role, TENANT_DATABASE_POOL_SIZE connections. */
  cells: CellsSettings;
}

export function scoringApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringApiConfig {
  return parseConfig(scoringApiConfigSchema, env);
}
