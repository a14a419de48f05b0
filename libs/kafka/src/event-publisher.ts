import { WireMessage } from '@agentwatch/contracts';
import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Kafka, Producer } from 'kafkajs';
import { KafkaSettings } from './kafka.settings';
import { metrics } from './metrics';
import { ProduceCoalescer, TopicBatch } from './produce-coalescer';

/**
 * The broker did not acknowledge in time: nothing may be reported as accepted. `mayBeAppended`:
 * the records were sent, and the broker may still append them; false only when they never left.
 */
export class BrokerUnavailableError extends Error {
  constructor(
    message: string,
    readonly mayBeAppended = true,
  ) {
    super(message);
  }
}

/** Records of one merged produce request stop accumulating past this size (one call is never split). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/**
 * Appends records to topics with the idempotent producer (acks = all) and resolves only once the
 * broker acknowledged every record of the call. Never one request per record: calls that arrive
 * while a request is in flight are merged into the next one (group commit).
 */
@Injectable()
export class EventPublisher implements OnModuleInit, OnApplicationShutdown {
  private readonly producer: Producer;
  private readonly coalescer: ProduceCoalescer<WireMessage>;

  constructor(
    kafka: Kafka,
    private readonly settings: KafkaSettings,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { initialRetryTime: 100, retries: 5, maxRetryTime: 2000 },
    });
    this.coalescer = new ProduceCoalescer<WireMessage>({
      send: (topicMessages) => this.send(topicMessages),
      sizeOf: (message) => message.value.length + message.key.length,
      maxRequestBytes: MAX_REQUEST_BYTES,
      timeoutMs: settings.publishTimeoutMs,
      onTimeout: (sent) => new BrokerUnavailableError(`no acknowledgment within ${settings.publishTimeoutMs} ms`, sent),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.producer.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.producer.disconnect();
  }

  publish(topic: string, messages: WireMessage[]): Promise<void> {
    return this.publishAll([{ topic, messages }]);
  }

  /** Several topics in one call: acknowledged together, or the call fails with BrokerUnavailableError. */
  publishAll(batches: TopicBatch<WireMessage>[]): Promise<void> {
    return this.coalescer.publish(
      batches.map((batch) => ({ topic: this.settings.prefix + batch.topic, messages: batch.messages })),
    );
  }

  private async send(topicMessages: TopicBatch<WireMessage>[]): Promise<void> {
    const stopTimer = metrics.produceSeconds.startTimer();
    try {
      await this.producer.sendBatch({ acks: -1, topicMessages });
      stopTimer();
      for (const batch of topicMessages) metrics.producedRecords.inc({ topic: batch.topic }, batch.messages.length);
    } catch (error) {
      metrics.produceFailures.inc();
      throw new BrokerUnavailableError((error as Error).message);
    }
  }
}
