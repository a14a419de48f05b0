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

export const scoringWorkerConfigSchema = z
  .object({ ...serverEnv, ...databaseEnv, ...kafkaEnv, ...llmEnv, SCORING_WORKER_PORT: port(8084) })
  .transform((env) => ({
    port: env.SCORING_WORKER_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    ...infrastructure(env, 'agentwatch-scoring-worker'),
    llm: llmSettingsFromEnv(textVariables(env)),
  }));

export interface ScoringWorkerConfig extends ServerConfig, Infrastructure {
  llm: LlmSettings;
}

export function scoringWorkerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringWorkerConfig {
  return parseConfig(scoringWorkerConfigSchema, env);
}
