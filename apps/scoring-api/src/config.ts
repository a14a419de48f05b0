import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { LlmSettings, llmSettingsFromEnv } from '@agentwatch/scoring';

export interface ScoringApiConfig {
  port: number;
  database: DatabaseConfig;
  kafka: KafkaSettings;
  llm: LlmSettings;
}

export function scoringApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ScoringApiConfig {
  return {
    port: Number(env.SCORING_API_PORT ?? 8081),
    database: databaseConfigFromEnv(env),
    kafka: kafkaSettingsFromEnv('agentwatch-scoring-api', env),
    llm: llmSettingsFromEnv(env),
  };
}
