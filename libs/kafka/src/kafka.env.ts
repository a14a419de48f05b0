import { integerText, LOG_LEVELS, oneOf, positiveIntegerText, text } from '@agentwatch/config';
import { z } from 'zod';

// The variables kafkaSettingsFromEnv reads (.env.example documents each), validated at start: an
// app's schema spreads this shape next to its own variables.

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
  // The same variable and rule as the HTTP apps' logger: the Kafka client logs at the process's level.
  LOG_LEVEL: oneOf(LOG_LEVELS, 'log'),
};
