import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { LlmSettings, llmSettingsFromEnv } from '@agentwatch/scoring';

export interface ScoringWorkerConfig {
  /** HTTP port of /health and /ready. */
  port: number;
  database: DatabaseConfig;
  kafka: KafkaSettings;
  llm: LlmSettings;
}

export function scoringWorkerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringWorkerConfig {
  return {
    port: Number(env.SCORING_WORKER_PORT ?? 8084),
    database: databaseConfigFromEnv(env),
    kafka: kafkaSettingsFromEnv('agentwatch-scoring-worker', env),
    llm: llmSettingsFromEnv(env),
  };
}
