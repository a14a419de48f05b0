import { Logger } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaSettings } from './kafka.settings';

const levels: Record<number, 'error' | 'warn' | 'log' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'log',
  [logLevel.DEBUG]: 'debug',
};

// The publisher bounds its retries on purpose: an ingest request must fail (503) rather than hang.
const BOUNDED_RETRIES_WARNING = 'Limiting retries for the idempotent producer';

const THRESHOLDS: Record<string, logLevel> = {
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  log: logLevel.INFO,
  debug: logLevel.DEBUG,
};

export function createKafka(settings: KafkaSettings): Kafka {
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  const threshold = THRESHOLDS[process.env.LOG_LEVEL ?? 'log'] ?? logLevel.INFO;
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    connectionTimeout: 3000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      const { message, ...extra } = entry.log;
      if (message.startsWith(BOUNDED_RETRIES_WARNING)) return;
      // A Connection logs every error response, retriable ones included; what is not retried away
      // surfaces again from the producer or consumer, so at this level it is detail, not an error.
      const level = entry.namespace === 'Connection' ? logLevel.DEBUG : entry.level;
      if (level > threshold) return;
      new Logger(`kafkajs:${entry.namespace}`)[levels[level] ?? 'log'](`${message} ${JSON.stringify(extra)}`);
    },
  });
}
