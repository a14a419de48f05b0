import { Logger } from '@nestjs/common';
import { EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { allSettledOrFirstError } from './all-settled';
import { lowest, MemberCheckpoint, needsLowWatermark, nextOf, planBatch, resumeAt } from './batch-plan';
import { CheckpointStore } from './checkpoint-store';
import { CommitGroups } from './commit-groups';
import { ConsumerSupervisor, STOP_GRACE_MS, within } from './consumer-supervisor';
import { DeadLetterSender } from './dead-letters';
import { failpoint } from './failpoint';
import { metrics } from './metrics';
import { OffsetCommitter } from './offset-committer';
import { FencedError, MemberPosition, PartitionCommits } from './partition-commits';
import { observeStageWaits, takenUpNow } from './projection-timing';
import { ProjectedRecord, RunnerMember } from './projection-types';
import { decodeBatch } from './record-decoding';
import { RecordRouter, RoutedBatch, routeBatch, sharedRecordsOf, TenantPart, targetsOf } from './record-routing';
import { sqlstateOf, withoutRecordContent } from './refusal';
import { PayloadOpener } from './sealing';
import { TenantCommits } from './tenant-commits';

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
   * Largest fetch per partition: a batch holds at most about this much, and `concurrency`
   * partitions' batches are in flight, decoded, at once. Default DEFAULT_FETCH_BYTES.
   */
  fetchBytesPerPartition?: number;
  /** Partitions whose batches are applied at once (sharing each database's transactions, see CommitGroups). Default 4. */
  concurrency?: number;
  /**
   * Commit without waiting for the WAL flush. Only for members whose every write is derived from
   * their topics (a replay rebuilds it): a database crash then loses the last batches' rows and their
   * checkpoint together, and they are projected again from the older checkpoint (the next
   * compare-and-set fails on it, and the consumer seeks back). Never for a journal of record.
   */
  asynchronousCommit?: boolean;
  /**
   * Where each organization's records are written (see RecordRouter). Without one, every record
   * goes to `dataSource`, as it did before cells.
   */
  router?: RecordRouter;
  /** Opens sealed values; without one, values are read as they are. */
  opener?: PayloadOpener;
  /** How long a partition waits before reading a held organization's records again. Default 2 s. */
  holdBackoffMs?: number;
}

// About 4,000 ingest records per partition and batch: enough to amortize a transaction; with all
// twelve partitions in flight, decoded, the projector catching up on a backlog stays inside 512 MB
// (about 400 MB at its peak, docs/adr/0021-projector-partitions-in-flight.md).
export const DEFAULT_FETCH_BYTES = 2 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_HOLD_BACKOFF_MS = 2000;

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
 *
 * Given a RecordRouter, a batch is split by its organizations' databases: one transaction per
 * tenant database touched (its rows and its own checkpoints, see TenantCommits), then the shared
 * database's, whose checkpoint stays the consumer's position. A crash between them reads the batch
 * again, and each tenant database skips what its own checkpoint says it holds.
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
  /** Per partition, the held record last logged. */
  private readonly lastHeld = new Map<string, string>();
  /** Run first in every batch's transaction (see asynchronousCommit and schema). */
  private readonly transactionSettings: string;
  /** Per database: the partitions in flight share its transactions (see CommitGroups). */
  private readonly tenantCommits: CommitGroups<TenantCommits<T>, ProjectedRecord<T>>;
  private readonly sharedCommits: CommitGroups<PartitionCommits<T>, ProjectedRecord<T>>;

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly options: ProjectionRunnerOptions<T>,
  ) {
    this.logger = new Logger(`projection:${options.consumerGroup}`);
    this.tenantCommits = new CommitGroups(TenantCommits.commitTogether, (batches) =>
      metrics.tenantBatchesCommittedTogether.inc({ consumer: options.name }, batches),
    );
    this.sharedCommits = new CommitGroups(PartitionCommits.commitTogether, (batches) =>
      metrics.sharedBatchesCommittedTogether.inc({ consumer: options.name }, batches),
    );
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
    const takenUpAt = takenUpNow();
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
      const stopTimer = metrics.projectionBatchSeconds.startTimer({ projection: this.options.name });
      const batchEnd = await this.projectBatch(topic, partition, plan.positions, plan.fresh, plan.next);
      if (batchEnd === 'fenced') return;
      stopTimer();
      if (batchEnd.held) {
        await this.holdAt(topic, partition, batchEnd.held, messages[0].offset, { resolveOffset, heartbeat, isRunning });
        return;
      }
      this.observe(
        topic,
        batchEnd.kept,
        plan.applying.map((m) => m.name),
      );
      observeStageWaits(this.options.name, topic, plan.fresh, takenUpAt);
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

  /**
   * Decodes, routes and commits a batch's fresh records: first each tenant database's transaction
   * (its rows and its own checkpoints), then the shared database's (its rows and the compare-and-set
   * checkpoints, the consumer's position). Resolves to what was kept and where a held organization
   * cut the batch, or 'fenced' when another consumer owns the partition now.
   */
  private async projectBatch(
    topic: string,
    partition: number,
    positions: MemberPosition<T>[],
    fresh: KafkaMessage[],
    next: string,
  ): Promise<RoutedBatch<ProjectedRecord<T>> | 'fenced'> {
    const decoded = await decodeBatch(fresh, {
      topic,
      partition,
      schema: this.options.topics[topic.slice(this.options.prefix.length)],
      consumer: this.options.name,
      opener: this.options.opener,
    });
    const routed = routeBatch(
      decoded.records,
      await targetsOf(this.options.router, this.options.members, decoded.records),
      next,
    );
    // Sent before the transactions commit (see DeadLetterSender); none past a held record, read again later.
    await this.deadLetters.send(
      routed.held ? decoded.dead.filter((d) => BigInt(d.message.offset) < BigInt(routed.next)) : decoded.dead,
    );
    const erased = decoded.erased + routed.erased.length;
    if (erased > 0) metrics.erasedRecordsSkipped.inc({ topic }, erased);
    if (BigInt(routed.next) <= BigInt(lowest(positions.map((p) => p.start)))) return routed;

    const messages = new Map(fresh.map((m) => [m.offset, m]));
    const where = `batch ${topic}/${partition}@${fresh[0].offset}..${routed.next}`;
    try {
      // Every tenant database at once: each keeps its own checkpoints, so none waits for another's
      // round trips, and partitions in flight still meet in each one and share its transaction (see
      // CommitGroups). The shared database's commit, the consumer's position, comes after them all.
      await allSettledOrFirstError(
        routed.tenants.map(async (part) => {
          const commits = this.tenantCommitsOf(topic, partition, positions, messages, part);
          const refused = await this.tenantCommits.commit(`${part.key} ${topic}`, commits, part.records, routed.next);
          if (refused !== null) this.warnRefused(`${where} in ${part.key}`, refused);
        }),
      );
      if (routed.tenants.length > 0) failpoint('projector.between-tenant-and-shared');
      const here = { routed: new Set(sharedRecordsOf('routed', routed)), shared: new Set(routed.kept) };
      const commits = this.commitsOf(
        topic,
        partition,
        positions,
        messages,
        (member, record) => !this.options.router || here[member.routing ?? 'routed'].has(record),
      );
      const refused = await this.sharedCommits.commit(topic, commits, routed.kept, routed.next);
      if (refused !== null) this.warnRefused(where, refused);
    } catch (error) {
      if (!(error instanceof FencedError)) throw withoutRecordContent(error, where);
      await this.reseekFenced(topic, partition, positions);
      return 'fenced';
    }
    failpoint('projector.after-db-commit');
    return routed;
  }

  private warnRefused(where: string, refused: unknown): void {
    this.logger.warn(`${where} refused (${sqlstateOf(refused) ?? '?'}): committed in parts around the records refused`);
  }

  /**
   * A held organization's record stops the partition there: what came before it is committed, the
   * consumer reads again from it after a pause (a route waiting for its database is a matter of
   * seconds to minutes; re-reading at once would only spin).
   */
  private async holdAt(
    topic: string,
    partition: number,
    held: NonNullable<RoutedBatch<unknown>['held']>,
    first: string,
    batch: Pick<EachBatchPayload, 'resolveOffset' | 'heartbeat' | 'isRunning'>,
  ): Promise<void> {
    metrics.heldBatches.inc({ projection: this.options.name, topic });
    const where = `${topic}/${partition}@${held.offset}`;
    // Once per held record, not once per retry.
    if (this.lastHeld.get(`${topic}:${partition}`) !== where) {
      this.lastHeld.set(`${topic}:${partition}`, where);
      this.logger.log(`${where}: organization ${held.orgId} is held (${held.reason}); waiting for its route`);
    }
    if (BigInt(held.offset) > BigInt(first)) {
      batch.resolveOffset((BigInt(held.offset) - 1n).toString());
      this.committer.note({ topic, partition, offset: held.offset });
    }
    this.consumer.seek(topic, partition, held.offset);
    const until = Date.now() + (this.options.holdBackoffMs ?? DEFAULT_HOLD_BACKOFF_MS);
    while (Date.now() < until && batch.isRunning() && !this.consumer.isStopping) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, until - Date.now())));
      if (!this.consumer.isStopping) await batch.heartbeat();
    }
  }

  private async reseekFenced(topic: string, partition: number, positions: MemberPosition<T>[]): Promise<void> {
    this.logger.warn(`checkpoint of ${topic}:${partition} moved under us: another member owns it now; re-reading`);
    for (const { member } of positions) this.checkpoints.delete(`${member.group}/${topic}:${partition}`);
    const current = await Promise.all(positions.map((p) => this.checkpoint(p.member.group, topic, partition)));
    const offset = resumeAt(current);
    if (offset !== null) this.consumer.seek(topic, partition, offset);
  }

  private commitsOf(
    topic: string,
    partition: number,
    positions: MemberPosition<T>[],
    messages: Map<string, KafkaMessage>,
    appliesHere: (member: RunnerMember<T>, record: ProjectedRecord<T>) => boolean,
  ) {
    return new PartitionCommits<T>({
      dataSource: this.dataSource,
      store: this.store,
      transactionSettings: this.transactionSettings,
      topic,
      baseTopic: topic.slice(this.options.prefix.length),
      partition,
      positions,
      messages,
      deadLetters: this.deadLetters,
      advanced: (group, next) => this.checkpoints.set(`${group}/${topic}:${partition}`, next),
      appliesHere,
    });
  }

  private tenantCommitsOf(
    topic: string,
    partition: number,
    positions: MemberPosition<T>[],
    messages: Map<string, KafkaMessage>,
    part: TenantPart<ProjectedRecord<T>>,
  ) {
    return new TenantCommits<T>({
      dataSource: part.dataSource,
      key: part.key,
      // A rebuild's schema exists in every tenant database it rebuilds (see rebuildProjections).
      transactionSettings: this.transactionSettings,
      table: this.store.table,
      topic,
      baseTopic: topic.slice(this.options.prefix.length),
      partition,
      // Copies: the shared commit that follows moves the positions.
      positions: positions.filter((p) => p.member.routing !== 'shared').map((p) => ({ ...p })),
      messages,
      deadLetters: this.deadLetters,
      sharedCheckpoints: (groups, partitions) => this.store.current(groups, topic, partitions),
    });
  }

  private observe(topic: string, records: ProjectedRecord<T>[], projections: string[]): void {
    const now = Date.now();
    // One latency per run of records sharing a time (one ingest request's records), not per record,
    // as the stage waits are counted (projection-timing.ts): parsing and observing every record for
    // every projection was 3 % of the projector's CPU.
    const latencies: number[] = [];
    let previous: string | undefined;
    for (const { time } of records) {
      if (time === previous) continue;
      previous = time;
      const seconds = (now - Date.parse(time)) / 1000;
      if (!Number.isNaN(seconds)) latencies.push(seconds);
    }
    for (const projection of projections) {
      metrics.projectedRecords.inc({ projection, topic }, records.length);
      const histogram = metrics.projectionLatencySeconds.labels({ projection });
      for (const seconds of latencies) histogram.observe(seconds);
    }
  }
}
