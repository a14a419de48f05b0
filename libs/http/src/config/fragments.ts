import {
  integerText,
  LOG_LEVELS,
  LogLevel,
  oneOf,
  positiveIntegerText,
  secretText,
  text,
  urlText,
} from '@agentwatch/config';
import { z } from 'zod';

// The HTTP-layer variables every serving app shares (.env.example documents each), validated once
// here. The database and Kafka variables are declared by libs/db and libs/kafka next to the builders
// that read them; an app's schema spreads the shapes it needs next to its own variables.

// LOG_LEVEL takes Nest's level names (libs/config's LOG_LEVELS), mapped onto pino's in logging.ts.
export { LOG_LEVELS, LogLevel } from '@agentwatch/config';

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
