import {
  databaseEnv,
  Infrastructure,
  infrastructure,
  kafkaEnv,
  llmEnv,
  parseConfig,
  port,
  ServerConfig,
  serverEnv,
  textVariables,
} from '@agentwatch/http';
import { LlmSettings, llmSettingsFromEnv } from '@agentwatch/scoring';
import { z } from 'zod';

export const scoringApiConfigSchema = z
  .object({ ...serverEnv, ...databaseEnv, ...kafkaEnv, ...llmEnv, SCORING_API_PORT: port(8081) })
  .transform((env) => ({
    port: env.SCORING_API_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    ...infrastructure(env, 'agentwatch-scoring-api'),
    llm: llmSettingsFromEnv(textVariables(env)),
  }));

export interface ScoringApiConfig extends ServerConfig, Infrastructure {
  llm: LlmSettings;
}

export function scoringApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringApiConfig {
  return parseConfig(scoringApiConfigSchema, env);
}
