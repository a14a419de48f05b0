import { integer, parseConfig, port, textVariables } from '@agentwatch/config';
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
    TENANT_DATABASE_POOL_SIZE: integer('a positive integer (connections)', 4, 1, 100),
  })
  .transform((env) => ({
    port: env.SCORING_API_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    database: databaseConfigFromEnv(textVariables(env)),
    kafka: kafkaSettingsFromEnv('agentwatch-scoring-api', textVariables(env)),
    llm: llmSettingsFromEnv(textVariables(env)),
    tenantPoolSize: env.TENANT_DATABASE_POOL_SIZE,
  }));

export interface ScoringApiConfig extends ServerConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  llm: LlmSettings;
  /** Connections of each provisioned tenant's database pool (opened on the tenant's first request). */
  tenantPoolSize: number;
}

export function scoringApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringApiConfig {
  return parseConfig(scoringApiConfigSchema, env);
}
