import { DatabaseConfig, databaseConfigFromEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { z } from 'zod';
import { integerText, oneOf, positiveIntegerText, secretText, text, urlText } from './env-vars';

// The variables several apps share (.env.example documents each), validated once here. An app's
// schema spreads the shapes it needs next to its own variables; the builders turn the validated
// values into the settings objects the libraries take.

const POSTGRES = ['postgres', 'postgresql'] as const;

export const databaseEnv = {
  DATABASE_URL: urlText(POSTGRES),
  DATABASE_OWNER_URL: urlText(POSTGRES),
  DATABASE_APP_URL: urlText(POSTGRES),
  DATABASE_PROJECTOR_URL: urlText(POSTGRES),
  DATABASE_CONTROL_URL: urlText(POSTGRES),
  DATABASE_ROLE_PASSWORD: secretText(),
};

const BROKER = /^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/;

export const kafkaEnv = {
  KAFKA_BROKERS: z.preprocess(
    (raw) => (raw === '' ? undefined : raw),
    z
      .string()
      .optional()
      .superRefine((raw, ctx) => {
        if (raw === undefined) return;
        const brokers = raw.split(',').map((b) => b.trim());
        if (!brokers.every((b) => BROKER.test(b)))
          ctx.addIssue({
            code: 'custom',
            message: `expected comma-separated host:port pairs, got ${JSON.stringify(raw)}`,
          });
      }),
  ),
  KAFKA_PORT: integerText('an integer port 0–65535', 0, 65_535),
  KAFKA_TOPIC_PREFIX: text(),
  KAFKA_PARTITIONS: positiveIntegerText('partitions'),
  KAFKA_PUBLISH_TIMEOUT_MS: positiveIntegerText('milliseconds'),
  KAFKA_SESSION_TIMEOUT_MS: positiveIntegerText('milliseconds'),
};

/** Nest's level names (what LOG_LEVEL has always taken), mapped onto pino's in logging.ts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const serverEnv = {
  HOST: z.preprocess(
    (raw) => (raw === '' ? undefined : raw),
    z
      .string()
      .regex(/^[A-Za-z0-9.:\-[\]]+$/, 'expected a host name or IP address')
      .default('0.0.0.0'),
  ),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'log'),
};

export const llmEnv = {
  LLM_URL: urlText(['http', 'https']),
  LLM_MODEL: text(),
  LLM_API_KEY: secretText(),
  LLM_TIMEOUT_MS: positiveIntegerText('milliseconds'),
  LLM_COOLDOWN_MS: integerText('an integer ≥ 0 (milliseconds)'),
  LLM_CONCURRENCY: positiveIntegerText('model calls in flight'),
  LLM_BATCH_BUDGET_MS: integerText('an integer ≥ 0 (milliseconds)'),
};

/** What every HTTP-serving app's configuration carries, whatever else it holds. */
export interface ServerConfig {
  port: number;
  host: string;
  logLevel: LogLevel;
}

export interface Infrastructure {
  database: DatabaseConfig;
  kafka: KafkaSettings;
}

type Variables<S> = { [K in keyof S]?: string };

export function infrastructure(
  env: Variables<typeof databaseEnv> & Variables<typeof kafkaEnv>,
  kafkaClientId: string,
): Infrastructure {
  return { database: databaseConfigFromEnv(env), kafka: kafkaSettingsFromEnv(kafkaClientId, env) };
}
