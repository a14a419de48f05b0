import { fromWire, MalformedEnvelopeError } from '@agentwatch/contracts';
import { Logger } from '@nestjs/common';
import { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { MemberCheckpoint, needsLowWatermark, nextOf, planBatch, resumeAt } from './batch-plan';
import { CheckpointStore } from './checkpoint-store';
import { ConsumerSupervisor, STOP_GRACE_MS, within } from './consumer-supervisor';
import { DeadLetter, DeadLetterSender, REDRIVE_PROJECTION_HEADER } from './dead-letters';
import { failpoint } from './failpoint';
import { metrics } from './metrics';
import { OffsetCommitter } from './offset-committer';
import { FencedError, MemberPosition, PartitionCommits } from './partition-commits';
import { commitIsolating } from './poison-isolation';
import { ProjectedRecord, RunnerMember } from './projection-types';
import { sqlstateOf, withoutRecordContent } from './refusal';

export interface ProjectionRunnerOptions<T> {
  /** The consumer's name, for logs and consumer metrics. */
  name: string;
  /** The Kafka consumer group, already prefixed. */
  consumerGroup: string;
  /** Base topic name → payload schema; records that fail it go to the dead-letter topic. */
  topics: Record<string, z.ZodType<T>>;
  /** The projections that share this consumer: each record is read and decoded once for all. */
  members: RunnerMember<T>[];
  prefix: string;
  sessionTimeoutMs: number;
  /** A rebuild's schema: tables the projection names resolve there first, checkpoints included. */
  schema?: string;
  /**
   * Largest fetch per partition: a batch holds at most about this much, and up to four partitions'
   * batches are in flight, decoded, at once. Default DEFAULT_FETCH_BYTES.
   */
  fetchBytesPerPartition?: number;
  /** Partitions whose batches are applied at once (each in its own transaction). Default 4. */
  concurrency?: number;
  /**
   * Commit without waiting for the WAL flush. Only for members whose every write is derived from
   * their topics (a replay rebuilds it): a database crash then loses the last batches' rows and their
   * checkpoint together, and they are projected again from the older checkpoint (the next
   * compare-and-set fails on it, and the consumer seeks back). Never for a journal of record.
   */
  asynchronousCommit?: boolean;
}

// About 4,000 ingest records per partition and batch: enough to amortize a transaction; with four
// partitions in flight, decoded, a projector catching up on a backlog stays inside 512 MB.
export const DEFAULT_FETCH_BYTES = 2 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 4;

const headerText = (value: unknown): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? String(value[0]) : String(value);

/** Only the headers the envelope is read from: decoding every header of every record costs. */
const envelopeHeaders = ({ headers = {} }: KafkaMessage) => ({
  ce_specversion: headerText(headers.ce_specversion),
  ce_id: headerText(headers.ce_id),
  ce_type: headerText(headers.ce_type),
  ce_time: headerText(headers.ce_time),
  org_id: headerText(headers.org_id),
  redrive_projection: headerText(headers[REDRIVE_PROJECTION_HEADER]),
});

/**
 * Exactly-once projection of Kafka partitions into Postgres: each batch's rows and its checkpoint
 * commit in one transaction, records below the checkpoint count as already applied, the checkpoint
 * advances by compare-and-set, and the consumer seeks to the stored checkpoint on every assignment.
 * Kafka's own committed offsets only follow the database, in the background (for lag tooling; see
 * OffsetCommitter); they are never trusted.
 *
 * Several projections of the same topics share one runner (one fetch and one decode per record, one
 * transaction per batch) and still keep a checkpoint each, so each can be rebuilt on its own: a
 * batch is read from the lowest of their checkpoints, and each applies only what it has not.
 */
export class ProjectionRunner<T> {
  private readonly logger: Logger;
  private readonly consumer: ConsumerSupervisor;
  private readonly deadLetters: DeadLetterSender;
  private readonly store: CheckpointStore;
  private readonly committer = new OffsetCommitter(
    (offsets) => this.consumer.commitOffsets(offsets),
    (error) => this.logger.warn(`could not commit offsets to Kafka (lag tooling only): ${error.message}`),
  );
  private readonly checkpoints = new Map<string, string | null>();
  /** Run first in every batch's transaction (see asynchronousCommit and schema). */
  private readonly transactionSettings: string;

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly options: ProjectionRunnerOptions<T>,
  ) {
    this.logger = new Logger(`projection:${options.consumerGroup}`);
    this.store = new CheckpointStore(
      dataSource,
      options.schema ? `${options.schema}.projection_checkpoints` : undefined,
    );
    this.transactionSettings = [
      ...(options.asynchronousCommit ? ['SET LOCAL synchronous_commit = off'] : []),
      ...(options.schema ? [`SET LOCAL search_path TO ${options.schema}, public`] : []),
    ].join('; ');
    this.consumer = new ConsumerSupervisor(
      kafka,
      {
        groupId: options.consumerGroup,
        topics: Object.keys(options.topics).map((topic) => options.prefix + topic),
        sessionTimeoutMs: options.sessionTimeoutMs,
        maxBytesPerPartition: options.fetchBytesPerPartition ?? DEFAULT_FETCH_BYTES,
        concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
        eachBatch: (payload) => this.project(payload),
        onAssignment: (assignment) => {
          this.committer.retain(assignment);
          // Best effort: if the database is unreachable now, each batch still checks its checkpoint first.
          this.seekToCheckpoints(assignment).catch((error: Error) =>
            this.logger.warn(`could not seek to the checkpoints on assignment: ${error.message}`),
          );
        },
      },
      this.logger,
    );
    this.deadLetters = new DeadLetterSender(kafka, options.consumerGroup, this.logger);
  }

  async start(): Promise<void> {
    await this.deadLetters.connect();
    await this.consumer.start();
  }

  /**
   * Graceful: takes no new batch, lets the ones in flight commit (rows and checkpoint), then leaves
   * the group. Each wait is bounded; whatever is cut short is re-read from the checkpoint later.
   */
  async stop(): Promise<void> {
    await this.consumer.stop(() => this.committer.flush());
    await within(this.deadLetters.disconnect(), STOP_GRACE_MS);
  }

  private async seekToCheckpoints(assignment: Record<string, number[]>): Promise<void> {
    // Another member may have advanced these partitions while this one did not own them.
    this.checkpoints.clear();
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) {
        const starts = await Promise.all(this.membersOf(topic).map((m) => this.checkpoint(m.group, topic, partition)));
        const offset = resumeAt(starts);
        if (offset !== null) this.consumer.seek(topic, partition, offset);
      }
    }
  }

  private membersOf(topic: string): RunnerMember<T>[] {
    const base = topic.slice(this.options.prefix.length);
    return this.options.members.filter((m) => m.topics.includes(base));
  }

  private async checkpoint(group: string, topic: string, partition: number): Promise<string | null> {
    const key = `${group}/${topic}:${partition}`;
    if (!this.checkpoints.has(key)) {
      this.checkpoints.set(key, await this.store.load(group, topic, partition));
    }
    return this.checkpoints.get(key) ?? null;
  }

  private async lowWatermark(topic: string, partition: number): Promise<string> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets.find((o) => o.partition === partition)?.low ?? '0';
    } finally {
      await admin.disconnect();
    }
  }

  private async project({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition, messages } = batch;
    if (messages.length === 0 || !isRunning() || isStale()) return;
    const checkpoints: MemberCheckpoint<RunnerMember<T>>[] = await Promise.all(
      this.membersOf(topic).map(async (member) => ({
        member,
        expected: await this.checkpoint(member.group, topic, partition),
      })),
    );
    const expected = checkpoints.map((c) => c.expected);
    const low = needsLowWatermark(expected, messages[0].offset) ? await this.lowWatermark(topic, partition) : null;
    const plan = planBatch(checkpoints, low, messages);
    // Kafka handed us records past a checkpoint (its offsets ran ahead of a reset database), and
    // retention kept them: read again from the checkpoint.
    if (plan.action === 'seek') {
      this.consumer.seek(topic, partition, plan.offset);
      return;
    }
    if (plan.action === 'project') {
      const { fresh, next, positions } = plan;
      const stopTimer = metrics.projectionBatchSeconds.startTimer({ projection: this.options.name });
      const records = await this.decodeOrDeadLetter(topic, partition, fresh);
      const commits = this.commitsOf(topic, partition, positions, fresh);
      try {
        const refused = await commitIsolating(commits, { records, next });
        if (refused !== null) {
          this.logger.warn(
            `batch ${topic}/${partition}@${fresh[0].offset}..${next} refused (${sqlstateOf(refused) ?? '?'}): committed in parts around the records refused`,
          );
        }
      } catch (error) {
        if (!(error instanceof FencedError))
          throw withoutRecordContent(error, `batch ${topic}/${partition}@${fresh[0].offset}`);
        await this.reseekFenced(topic, partition, positions);
        return;
      }
      failpoint('projector.after-db-commit');
      stopTimer();
      this.observe(
        topic,
        records,
        plan.applying.map((m) => m.name),
      );
    }
    for (const member of this.membersOf(topic)) {
      metrics.consumerLag.set(
        { projection: member.name, topic, partition: String(partition) },
        Number(batch.offsetLag()),
      );
    }

    const last = messages[messages.length - 1].offset;
    resolveOffset(last);
    this.committer.note({ topic, partition, offset: nextOf(last) });
    if (this.consumer.isStopping) return; // the batch is safe in the database; the group is being left anyway
    await heartbeat();
  }

  private async reseekFenced(topic: string, partition: number, positions: MemberPosition<T>[]): Promise<void> {
    this.logger.warn(`checkpoint of ${topic}:${partition} moved under us: another member owns it now; re-reading`);
    for (const { member } of positions) this.checkpoints.delete(`${member.group}/${topic}:${partition}`);
    const current = await Promise.all(positions.map((p) => this.checkpoint(p.member.group, topic, partition)));
    const offset = resumeAt(current);
    if (offset !== null) this.consumer.seek(topic, partition, offset);
  }

  private commitsOf(topic: string, partition: number, positions: MemberPosition<T>[], messages: KafkaMessage[]) {
    return new PartitionCommits<T>({
      dataSource: this.dataSource,
      store: this.store,
      transactionSettings: this.transactionSettings,
      topic,
      baseTopic: topic.slice(this.options.prefix.length),
      partition,
      positions,
      messages: new Map(messages.map((m) => [m.offset, m])),
      deadLetters: this.deadLetters,
      advanced: (group, next) => this.checkpoints.set(`${group}/${topic}:${partition}`, next),
    });
  }

  private observe(topic: string, records: ProjectedRecord<T>[], projections: string[]): void {
    const now = Date.now();
    const latencies = records.map((r) => (now - Date.parse(r.time)) / 1000).filter((s) => !Number.isNaN(s));
    for (const projection of projections) {
      metrics.projectedRecords.inc({ projection, topic }, records.length);
      const histogram = metrics.projectionLatencySeconds.labels({ projection });
      for (const seconds of latencies) histogram.observe(seconds);
    }
  }

  private async decodeOrDeadLetter(topic: string, partition: number, messages: KafkaMessage[]) {
    const schema = this.options.topics[topic.slice(this.options.prefix.length)];
    const records: ProjectedRecord<T>[] = [];
    const dead: DeadLetter[] = [];
    for (const message of messages) {
      try {
        const headers = envelopeHeaders(message);
        const wire = fromWire(message.key?.toString() ?? null, message.value?.toString() ?? null, headers);
        const payload = schema.safeParse(wire.payload);
        if (!payload.success) throw new MalformedEnvelopeError(`payload: ${payload.error.message}`);
        records.push({
          id: wire.id,
          type: wire.type,
          time: wire.time,
          orgId: wire.orgId,
          payload: payload.data,
          partition,
          offset: message.offset,
          ...(headers.redrive_projection ? { onlyFor: headers.redrive_projection } : {}),
        });
      } catch (error) {
        if (!(error instanceof MalformedEnvelopeError)) throw error;
        dead.push({ topic, partition, message, reason: 'decode', projection: this.options.name, error: error.message });
      }
    }
    // Sent before the batch's transaction commits (see DeadLetterSender).
    await this.deadLetters.send(dead);
    return records;
  }
}
