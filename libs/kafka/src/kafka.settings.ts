import { isLogLevel, LogLevel } from '@agentwatch/config';

// An abstract class rather than an interface so that it doubles as the Nest injection token.
export abstract class KafkaSettings {
  abstract brokers: string[];
  abstract clientId: string;
  /** Prepended to every topic and consumer group: lets test runs and side-by-side deployments share a broker. */
  abstract prefix: string;
  abstract partitions: number;
  /** How long an HTTP ingest waits for the broker's acknowledgment before answering 503. */
  abstract publishTimeoutMs: number;
  /** Consumer group session timeout: how long a member that died silently keeps its partitions. */
  abstract sessionTimeoutMs: number;
  /** The client logs what is at least this severe (LOG_LEVEL, the process's own level). */
  abstract logLevel: LogLevel;
}

export function kafkaSettingsFromEnv(clientId: string, env: NodeJS.ProcessEnv = process.env): KafkaSettings {
  return {
    brokers: (env.KAFKA_BROKERS ?? `127.0.0.1:${env.KAFKA_PORT ?? 9092}`)
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    clientId,
    prefix: env.KAFKA_TOPIC_PREFIX ?? '',
    partitions: Number(env.KAFKA_PARTITIONS ?? 12),
    publishTimeoutMs: Number(env.KAFKA_PUBLISH_TIMEOUT_MS ?? 10_000),
    sessionTimeoutMs: Number(env.KAFKA_SESSION_TIMEOUT_MS ?? 30_000),
    // Validated by kafkaEnv where a schema parses the environment; a builder given raw text keeps the default.
    logLevel: isLogLevel(env.LOG_LEVEL) ? env.LOG_LEVEL : 'log',
  };
}
