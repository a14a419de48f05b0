import { Logger } from '@nestjs/common';
import { Consumer, EachBatchPayload, Kafka, TopicPartitionOffsetAndMetadata } from 'kafkajs';

export interface SupervisorOptions {
  groupId: string;
  /** Full topic names, prefix included. */
  topics: string[];
  sessionTimeoutMs: number;
  maxBytesPerPartition: number;
  concurrency: number;
  /** Each batch; not called once a stop has begun. */
  eachBatch: (payload: EachBatchPayload) => Promise<void>;
  /** Each (re)join of the group, with this member's partitions by topic. */
  onAssignment: (assignment: Record<string, number[]>) => void;
}

/** How long a stop waits for the batches in flight, then for each step of leaving the group. */
export const STOP_GRACE_MS = 30_000;

export const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> =>
  Promise.race([promise, new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms).unref())]);

/**
 * Keeps one kafkajs consumer running for a runner: creates it, replaces it after a crash kafkajs
 * would not restart from, and stops it gracefully. Batches in flight are tracked so a stop lets
 * them commit before the group is left.
 */
export class ConsumerSupervisor {
  private current: Consumer;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: SupervisorOptions,
    private readonly logger: Logger,
  ) {
    this.current = this.create();
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async start(): Promise<void> {
    await this.run(this.current);
  }

  seek(topic: string, partition: number, offset: string): void {
    this.current.seek({ topic, partition, offset });
  }

  commitOffsets(offsets: TopicPartitionOffsetAndMetadata[]): Promise<void> {
    return this.current.commitOffsets(offsets);
  }

  /**
   * Graceful: takes no new batch, lets the ones in flight finish, runs `beforeLeaving` (each wait
   * bounded), then leaves the group. Whatever is cut short is re-read from the checkpoints later.
   */
  async stop(beforeLeaving: () => Promise<void>): Promise<void> {
    this.stopping = true;
    const batches = this.inFlight.size;
    if (batches > 0) {
      this.logger.log(`stopping: finishing ${batches} batch(es) in flight`);
      const settled = await within(Promise.allSettled(this.inFlight), STOP_GRACE_MS);
      this.logger.log(
        settled === 'timed out'
          ? 'stopping: batches still in flight after the grace period'
          : 'stopping: batches finished',
      );
    }
    await within(beforeLeaving(), STOP_GRACE_MS);
    if ((await within(this.current.disconnect(), STOP_GRACE_MS)) === 'timed out') {
      this.logger.warn('stopping: the consumer did not leave its group in time; its session will expire');
    }
  }

  private create(): Consumer {
    const { sessionTimeoutMs } = this.options;
    const consumer = this.kafka.consumer({
      groupId: this.options.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
      maxBytesPerPartition: this.options.maxBytesPerPartition,
      maxWaitTimeInMs: 100,
      // A batch that keeps failing (database down, say) restarts the consumer instead of stopping it:
      // projections recover on their own once the cause is gone. Never once stopping: a restart
      // scheduled then would run against connections the shutdown is closing.
      retry: {
        retries: 8,
        initialRetryTime: 300,
        maxRetryTime: 30_000,
        restartOnFailure: async () => !this.stopping,
      },
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => this.options.onAssignment(event.payload.memberAssignment));
    consumer.on(consumer.events.CRASH, (event) => {
      // kafkajs restarts a consumer only after errors it deems retriable. Others (a member the
      // coordinator forgot while a batch waited out a database outage, say) would leave this
      // projection stopped for good: replace the consumer instead.
      if (!event.payload.restart && !this.stopping) this.replace(1000);
    });
    return consumer;
  }

  private async run(consumer: Consumer): Promise<void> {
    await consumer.connect();
    for (const topic of this.options.topics) await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.concurrency,
      eachBatch: (payload) => this.handle(payload),
    });
  }

  private replace(delayMs: number): void {
    this.logger.warn(`consumer stopped after a non-retriable error; replacing it in ${delayMs} ms`);
    setTimeout(async () => {
      if (this.stopping) return;
      try {
        await this.current.disconnect();
        this.current = this.create();
        await this.run(this.current);
        if (this.stopping)
          await this.current.disconnect(); // stop() began while this one was joining
        else this.logger.log('consumer replaced; projecting again');
      } catch (error) {
        this.logger.warn(`could not replace the consumer: ${(error as Error).message}`);
        this.replace(Math.min(delayMs * 2, 30_000));
      }
    }, delayMs);
  }

  private async handle(payload: EachBatchPayload): Promise<void> {
    if (this.stopping) return;
    const handling = this.options.eachBatch(payload);
    this.inFlight.add(handling);
    try {
      await handling;
    } finally {
      this.inFlight.delete(handling);
    }
  }
}
