import { deadLetterTopic } from '@agentwatch/contracts';
import { Logger } from '@nestjs/common';
import { IHeaders, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { metrics } from './metrics';

/** The headers a dead letter carries on top of the original record's. */
export const DLQ_HEADERS = {
  error: 'dlq_error',
  sqlstate: 'dlq_sqlstate',
  reason: 'dlq_reason',
  sourceTopic: 'dlq_source_topic',
  sourcePartition: 'dlq_source_partition',
  sourceOffset: 'dlq_source_offset',
  orgId: 'dlq_org_id',
  projection: 'dlq_projection',
  consumerGroup: 'dlq_consumer_group',
  time: 'dlq_time',
} as const;

/** Every dead-letter header starts with it: what a redrive strips to get the original headers back. */
export const DLQ_HEADER_PREFIX = 'dlq_';

/**
 * Put by a redrive on a record one projection refused: the projections sharing its consumer applied
 * it already, and only the one named applies it again (see ProjectedRecord.onlyFor).
 */
export const REDRIVE_PROJECTION_HEADER = 'redrive_projection';

/** `decode`: the envelope or payload failed its schema. `refused`: the database refused the record's content. */
export type DeadLetterReason = 'decode' | 'refused';

export interface DeadLetter {
  /** The source topic, deployment prefix included. */
  topic: string;
  partition: number;
  message: Pick<KafkaMessage, 'key' | 'value' | 'headers' | 'offset'>;
  reason: DeadLetterReason;
  /** The projection that refused it (for `decode`: the consumer, which decodes for all its projections). */
  projection: string;
  error: string;
  sqlstate?: string;
}

/** An error message can quote the record's value back (a CHECK failure does): bounded, it stays a header. */
const MAX_ERROR_CHARS = 2000;

const headerText = (value: IHeaders[string]): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? String(value[0]) : String(value);

/**
 * Sends records to `<topic>.dlq` with the original key, value and headers, plus where they came
 * from and why, then counts and logs each one (never its value). The send is acknowledged by every
 * in-sync replica before the caller commits the checkpoint that skips the record: a crash in between
 * repeats the send, so a dead-letter topic is at-least-once and (source topic, partition, offset)
 * identifies a record in it.
 */
export class DeadLetterSender {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    private readonly consumerGroup: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  async send(letters: DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const time = this.now().toISOString();
    const topics = [...new Set(letters.map((l) => l.topic))];
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: topics.map((topic) => ({
        topic: deadLetterTopic(topic),
        messages: letters.filter((l) => l.topic === topic).map((letter) => this.toMessage(letter, time)),
      })),
    });
    for (const letter of letters) {
      metrics.deadLetters.inc({ projection: letter.projection, topic: letter.topic, reason: letter.reason });
      this.logger.warn(
        `dead letter ${JSON.stringify({
          topic: letter.topic,
          partition: letter.partition,
          offset: letter.message.offset,
          org: orgOf(letter.message),
          projection: letter.projection,
          reason: letter.reason,
          sqlstate: letter.sqlstate ?? null,
          error: letter.error.slice(0, MAX_ERROR_CHARS),
          dlq: deadLetterTopic(letter.topic),
        })}`,
      );
    }
  }

  private toMessage(letter: DeadLetter, time: string) {
    const { message } = letter;
    return {
      key: message.key,
      value: message.value,
      headers: {
        ...message.headers,
        [DLQ_HEADERS.error]: letter.error.slice(0, MAX_ERROR_CHARS),
        ...(letter.sqlstate ? { [DLQ_HEADERS.sqlstate]: letter.sqlstate } : {}),
        [DLQ_HEADERS.reason]: letter.reason,
        [DLQ_HEADERS.sourceTopic]: letter.topic,
        [DLQ_HEADERS.sourcePartition]: String(letter.partition),
        [DLQ_HEADERS.sourceOffset]: message.offset,
        [DLQ_HEADERS.orgId]: orgOf(message) ?? '',
        [DLQ_HEADERS.projection]: letter.projection,
        [DLQ_HEADERS.consumerGroup]: this.consumerGroup,
        [DLQ_HEADERS.time]: time,
      },
    };
  }
}

const orgOf = (message: Pick<KafkaMessage, 'headers'>): string | undefined => headerText(message.headers?.org_id);
