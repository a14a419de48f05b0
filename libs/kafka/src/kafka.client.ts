import { LogLevel } from '@agentwatch/config';
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
// Every producer keeps kafkajs's default partitioner: the warning that it changed in kafkajs 2 is noise.
const SILENCED = ['Limiting retries for the idempotent producer', 'KafkaJS v2.0.0 switched default partitioner'];

// kafkajs has no fatal level (it logs nothing at NOTHING) and no verbose one (debug is its most detailed).
const THRESHOLDS: Record<LogLevel, logLevel> = {
  fatal: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  log: logLevel.INFO,
  debug: logLevel.DEBUG,
  verbose: logLevel.DEBUG,
};

export function createKafka(settings: KafkaSettings): Kafka {
  const threshold = THRESHOLDS[settings.logLevel] ?? logLevel.INFO;
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    connectionTimeout: 3000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 200, retries: 8, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator: () => (entry) => {
      const { message, ...extra } = entry.log;
      if (SILENCED.some((silenced) => message.startsWith(silenced))) return;
      // A Connection logs every error response, retriable ones included; what is not retried away
      // surfaces again from the producer or consumer, so at this level it is detail, not an error.
      const level = entry.namespace === 'Connection' ? logLevel.DEBUG : entry.level;
      if (level > threshold) return;
      new Logger(`kafkajs:${entry.namespace}`)[levels[level] ?? 'log'](`${message} ${JSON.stringify(extra)}`);
    },
  });
}
