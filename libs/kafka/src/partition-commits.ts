import { KafkaMessage } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { CheckpointStore } from './checkpoint-store';
import { DeadLetter, DeadLetterSender } from './dead-letters';
import { delayPoint } from './failpoint';
import { ProjectedRecord, RunnerMember } from './projection-types';
import { classifyFailure, sqlstateOf } from './refusal';

/** The checkpoint moved under a compare-and-set: another consumer owns the partition now. */
export class FencedError extends Error {}

/** Where one member of the runner stands on the partition; moved forward by every commit. */
export interface MemberPosition<T> {
  member: RunnerMember<T>;
  /** The stored checkpoint (null: none yet), what the next compare-and-set expects. */
  expected: string | null;
  /** The first offset it has not applied. */
  start: string;
}

export interface PartitionCommitsOptions<T> {
  dataSource: DataSource;
  store: CheckpointStore;
  /** Run first in every transaction (SET LOCAL …), or empty. */
  transactionSettings: string;
  /** The topic as consumed, deployment prefix included. */
  topic: string;
  /** The topic's contract name, what members are told. */
  baseTopic: string;
  partition: number;
  positions: MemberPosition<T>[];
  /** The fetched records by offset: what a dead letter carries is the original, not the decoded form. */
  messages: Map<string, KafkaMessage>;
  deadLetters: DeadLetterSender;
  /** Told after each commit, so the runner's checkpoint cache follows committed parts. */
  advanced: (group: string, next: string) => void;
  /**
   * Whether a member applies a record here; default every record. A routed batch's records of
   * tenant databases are committed there (see TenantCommits), and only move the checkpoint here.
   */
  appliesHere?: (member: RunnerMember<T>, record: ProjectedRecord<T>) => boolean;
}

/**
 * The transactions of one partition's batch: each applies a run of records to every member that
 * has not seen them and moves those members' checkpoints, by compare-and-set, to the offset after
 * the run. Rows and checkpoint commit together, so a batch committed in several parts is still
 * exactly-once: a crash between parts resumes at the last part's checkpoint.
 */
export class PartitionCommits<T> {
  constructor(private readonly o: PartitionCommitsOptions<T>) {}

  /** Applies `records` (ascending) and moves the checkpoints to `next`; throws what the transaction threw. */
  async commit(records: ProjectedRecord<T>[], next: string): Promise<void> {
    await this.transaction(next, async (tx, position) => {
      const unseen = unseenBy(position, records);
      if (unseen.length > 0) await this.apply(tx, position, unseen);
    });
  }

  /**
   * Applies one record that a batch was refused for, member by member, each inside a savepoint: a
   * member that refuses it for its content gets a dead letter (sent before the commit that skips
   * it), the others keep their rows, and every checkpoint moves past it.
   */
  async commitAlone(record: ProjectedRecord<T>, next: string): Promise<void> {
    await this.transaction(next, async (tx, position, refusals) => {
      if (unseenBy(position, [record]).length === 0) return;
      await tx.query('SAVEPOINT member_apply');
      try {
        await this.apply(tx, position, [record]);
        await tx.query('RELEASE SAVEPOINT member_apply');
      } catch (error) {
        if (classifyFailure(error) !== 'content') throw error;
        await tx.query('ROLLBACK TO SAVEPOINT member_apply');
        refusals.push(this.refusal(record, position.member.name, error));
      }
    });
  }

  private async transaction(
    next: string,
    applyTo: (tx: EntityManager, position: MemberPosition<T>, refusals: DeadLetter[]) => Promise<void>,
  ): Promise<void> {
    const behind = this.behind(next);
    await this.o.dataSource.transaction(async (tx) => {
      if (this.o.transactionSettings) await tx.query(this.o.transactionSettings);
      const refusals: DeadLetter[] = [];
      for (const position of behind) await applyTo(tx, position, refusals);
      const members = behind.map(({ member, expected }) => ({ group: member.group, expected }));
      const [fenced] = await this.o.store.advance(tx, this.o.topic, this.o.partition, members, next);
      if (fenced !== undefined) throw new FencedError(fenced);
      await this.o.deadLetters.send(refusals);
      await delayPoint('projector.in-transaction');
    });
    this.committed(behind, next);
  }

  /**
   * The batches of several partitions of one topic in this database, in one transaction: each member
   * applies every batch's records it has not seen at once, and each batch's checkpoints move by
   * compare-and-set as its own commit would move them. The fixed cost of a transaction (the members'
   * statements, the commit) is paid once for all of them. Throws what the database threw, a
   * FencedError when any batch's partition moved under this runner: the caller then commits each
   * batch on its own.
   */
  static async commitTogether<T>(
    batches: { commits: PartitionCommits<T>; records: ProjectedRecord<T>[]; next: string }[],
  ): Promise<void> {
    const { o } = batches[0].commits;
    const parts = batches.map(({ commits, records, next }) => ({
      commits,
      records,
      next,
      behind: commits.behind(next),
    }));
    await o.dataSource.transaction(async (tx) => {
      if (o.transactionSettings) await tx.query(o.transactionSettings);
      const applying = new Map<string, { member: RunnerMember<T>; records: ProjectedRecord<T>[] }>();
      for (const { commits, records, behind } of parts) {
        for (const position of behind) {
          const own = commits.ownOf(position, unseenBy(position, records));
          if (own.length === 0) continue;
          const entry = applying.get(position.member.name) ?? { member: position.member, records: [] };
          applying.set(position.member.name, entry);
          // Not push(...own): a replay's batch holds tens of thousands of records, past what a call's arguments take.
          entry.records = entry.records.length === 0 ? own : entry.records.concat(own);
        }
      }
      for (const { member, records } of applying.values()) await member.apply({ tx, topic: o.baseTopic, records });
      for (const { commits, next, behind } of parts) {
        const members = behind.map(({ member, expected }) => ({ group: member.group, expected }));
        const [fenced] = await o.store.advance(tx, o.topic, commits.o.partition, members, next);
        if (fenced !== undefined) throw new FencedError(fenced);
      }
      await delayPoint('projector.in-transaction');
    });
    for (const { commits, next, behind } of parts) commits.committed(behind, next);
  }

  /** The members whose checkpoint is behind `next`: a member already past it (a rebuild swapped in) sits the run out. */
  private behind(next: string): MemberPosition<T>[] {
    return this.o.positions.filter((p) => BigInt(p.start) < BigInt(next));
  }

  /** After the commit: the members that took part stand at `next`, and the runner's cache says so. */
  private committed(behind: MemberPosition<T>[], next: string): void {
    for (const position of behind) {
      position.expected = next;
      position.start = next;
      this.o.advanced(position.member.group, next);
    }
  }

  private async apply(tx: EntityManager, position: MemberPosition<T>, records: ProjectedRecord<T>[]): Promise<void> {
    const own = this.ownOf(position, records);
    if (own.length > 0) await position.member.apply({ tx, topic: this.o.baseTopic, records: own });
  }

  /** Of `records`, those this member applies in this database. */
  private ownOf(position: MemberPosition<T>, records: ProjectedRecord<T>[]): ProjectedRecord<T>[] {
    const { member } = position;
    const here = this.o.appliesHere;
    return ownRecords(member.name, here ? records.filter((r) => here(member, r)) : records);
  }

  private refusal(record: ProjectedRecord<T>, projection: string, error: unknown): DeadLetter {
    return refusalOf(this.o, record, projection, error);
  }
}

/**
 * The dead letter of a record a projection refused for its content: the original fetched message (not
 * the decoded form), the error and its SQLSTATE. `where` names the database when it is not the shared one.
 */
export function refusalOf(
  batch: { topic: string; partition: number; messages: Map<string, KafkaMessage> },
  record: { offset: string },
  projection: string,
  error: unknown,
  where?: string,
): DeadLetter {
  const message = batch.messages.get(record.offset);
  if (!message) throw new Error(`record ${batch.topic}/${batch.partition}@${record.offset} is not in its batch`);
  const text = error instanceof Error ? error.message : String(error);
  return {
    topic: batch.topic,
    partition: batch.partition,
    message,
    reason: 'refused',
    projection,
    error: where ? `${text} (in ${where})` : text,
    sqlstate: sqlstateOf(error),
  };
}

/** A redriven record is applied again only by the projection that refused it (see ProjectedRecord.onlyFor). */
export const ownRecords = <T>(name: string, records: ProjectedRecord<T>[]) =>
  records.some((r) => r.onlyFor !== undefined) ? records.filter((r) => (r.onlyFor ?? name) === name) : records;

const unseenBy = <T>(position: MemberPosition<T>, records: ProjectedRecord<T>[]) =>
  records.length > 0 && BigInt(records[0].offset) >= BigInt(position.start)
    ? records
    : records.filter((r) => BigInt(r.offset) >= BigInt(position.start));
