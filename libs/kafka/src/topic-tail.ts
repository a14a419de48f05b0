import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { fromWire, MalformedEnvelopeError, prefixedTopic } from '@agentwatch/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { Consumer, Kafka } from 'kafkajs';
import { z } from 'zod';
import { KafkaSettings } from './kafka.settings';

const CATCH_UP_TIMEOUT_MS = 30_000;
const TAIL_FETCH_WAIT_MS = 500;

export interface TailedRecord<T> {
  key: string;
  orgId: string;
  payload: T;
}

export interface TopicTailOptions<T> {
  /** The topic's contract name (the deployment prefix is added). */
  topic: string;
  schema: z.ZodType<T>;
  onRecord: (record: TailedRecord<T>) => void;
}

/**
 * Reads a whole topic into the process, from its first record and on as records arrive: the way every
 * replica keeps a small directory (routes) in memory. Each process is a consumer group of its own, so
 * every process sees every record; it commits no offsets and starts from the beginning each time.
 */
export class TopicTail<T> {
  private readonly logger: Logger;
  private readonly consumer: Consumer;
  private readonly topic: string;
  /** Per partition: the offset after the last record handed to onRecord. */
  private readonly consumed = new Map<number, bigint>();
  private waiters: (() => void)[] = [];

  constructor(
    private readonly kafka: Kafka,
    settings: KafkaSettings,
    private readonly options: TopicTailOptions<T>,
  ) {
    this.topic = prefixedTopic(settings.prefix, options.topic);
    this.logger = new Logger(`tail:${options.topic}`);
    this.consumer = kafka.consumer({
      groupId: `${settings.prefix}tail.${options.topic}.${hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`,
      sessionTimeout: settings.sessionTimeoutMs,
      // A reader with one member: no other member's join to wait for.
      rebalanceTimeout: 10_000,
      // A caught-up reader's fetch waits this long for a record, and a stop waits for that fetch:
      // kafkajs's default of 5 s would hold a replay's start (it reads the routes, then stops) and
      // every app's shutdown for up to 5 s. A record still arrives as soon as it is appended;
      // what this costs is an empty fetch twice a second while the topic is quiet.
      maxWaitTimeInMs: TAIL_FETCH_WAIT_MS,
    });
  }

  /** Starts reading and resolves once every record that existed at the call has been read. */
  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) this.read(message.key?.toString() ?? '', message);
        this.consumed.set(batch.partition, BigInt(batch.lastOffset()) + 1n);
        this.notify();
      },
    });
    await this.caughtUp();
  }

  /**
   * Resolves once this reader has read everything the topic held when it was called: a record
   * appended before the call is then known to the caller.
   */
  async caughtUp(): Promise<void> {
    const ends = await this.highWatermarks();
    const behind = () => ends.some(({ partition, high }) => (this.consumed.get(partition) ?? 0n) < BigInt(high));
    const deadline = Date.now() + CATCH_UP_TIMEOUT_MS;
    while (behind()) {
      if (Date.now() > deadline)
        throw new Error(`${this.topic} was not read to its end within ${CATCH_UP_TIMEOUT_MS} ms`);
      await new Promise<void>((resolve) => {
        // Re-checked at least once a second: the deadline holds even when no batch arrives.
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }

  /**
   * The topic's ends. Asked right after the topic was created (an app's first start), a partition may
   * have no leader yet: that answer is retried for a few seconds.
   */
  private async highWatermarks(): Promise<{ partition: number; high: string }[]> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return await admin.fetchTopicOffsets(this.topic);
        } catch (error) {
          if (!(error as { retriable?: boolean }).retriable || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    } finally {
      await admin.disconnect();
    }
  }

  private read(key: string, message: { value: Buffer | null; headers?: Record<string, unknown> }): void {
    try {
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).map(([name, value]) => [name, value?.toString()]),
      );
      const wire = fromWire(key, message.value?.toString() ?? null, headers);
      const payload = this.options.schema.safeParse(wire.payload);
      if (!payload.success) throw new MalformedEnvelopeError(payload.error.message);
      this.options.onRecord({ key, orgId: wire.orgId, payload: payload.data });
    } catch (error) {
      if (!(error instanceof MalformedEnvelopeError)) throw error;
      this.logger.error(`skipped an unreadable record of ${this.topic}: ${error.message}`);
    }
  }

  private notify(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }
}

/** Makes topic readers for code that may not import kafkajs (everything outside libs/kafka). */
@Injectable()
export class TopicTails {
  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaSettings,
  ) {}

  tail<T>(options: TopicTailOptions<T>): TopicTail<T> {
    return new TopicTail(this.kafka, this.settings, options);
  }
}
