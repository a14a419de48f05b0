import { WireMessage } from '@agentwatch/contracts';
import { Injectable, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { Kafka, Producer } from 'kafkajs';
import { KafkaSettings } from './kafka.settings';
import { metrics } from './metrics';
import { ProduceCoalescer, TopicBatch } from './produce-coalescer';
import { PayloadSealer, SEALED_HEADER } from './sealing';

/** A record as appended: a sealed value is base64 text or bytes, not the JSON the WireMessage held. */
type OutgoingMessage = Omit<WireMessage, 'value'> & { value: string | Buffer };

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
  private readonly coalescer: ProduceCoalescer<OutgoingMessage>;

  constructor(
    kafka: Kafka,
    private readonly settings: KafkaSettings,
    // Present in the data plane (libs/cells): values of organizations with a data key are sealed.
    @Optional() private readonly sealer?: PayloadSealer,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { initialRetryTime: 100, retries: 5, maxRetryTime: 2000 },
    });
    this.coalescer = new ProduceCoalescer<OutgoingMessage>({
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
  async publishAll(batches: TopicBatch<WireMessage>[]): Promise<void> {
    const outgoing = this.sealer ? await this.sealed(this.sealer, batches) : batches;
    return this.coalescer.publish(
      outgoing.map((batch) => ({ topic: this.settings.prefix + batch.topic, messages: batch.messages })),
    );
  }

  /**
   * The call's records with the values of keyed organizations sealed. One question to the sealer per
   * call: a call with no keyed organization goes out as it came. A value already sealed (a dead
   * letter sent back) is never sealed twice.
   */
  private async sealed(
    sealer: PayloadSealer,
    batches: TopicBatch<WireMessage>[],
  ): Promise<TopicBatch<OutgoingMessage>[]> {
    const orgIds = new Set<string>();
    for (const batch of batches) {
      for (const message of batch.messages) orgIds.add(message.headers.org_id);
    }
    const keyed = await sealer.toSeal(orgIds);
    if (keyed.size === 0) return batches;
    const sealOne = async (message: WireMessage): Promise<OutgoingMessage> => {
      const orgId = message.headers.org_id;
      if (!keyed.has(orgId) || message.headers[SEALED_HEADER] !== undefined) return message;
      const sealed = await sealer.seal(orgId, message.value);
      return { ...message, value: sealed.value, headers: { ...message.headers, ...sealed.headers } };
    };
    return Promise.all(
      batches.map(async (batch) => ({ topic: batch.topic, messages: await Promise.all(batch.messages.map(sealOne)) })),
    );
  }

  private async send(topicMessages: TopicBatch<OutgoingMessage>[]): Promise<void> {
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
