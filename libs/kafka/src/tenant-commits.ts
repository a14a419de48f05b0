import { KafkaMessage } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { DeadLetter, DeadLetterSender } from './dead-letters';
import { delayPoint } from './failpoint';
import { FencedError, MemberPosition, ownRecords, refusalOf } from './partition-commits';
import { RunCommitter } from './poison-isolation';
import { prepared } from './prepared';
import { ProjectedRecord } from './projection-types';
import { classifyFailure } from './refusal';

export interface TenantCommitsOptions<T> {
  /** The tenant database's pool (the process's own role on that cell). */
  dataSource: DataSource;
  /** Names the database in errors and dead letters' logs. */
  key: string;
  /** Run first in every transaction (SET LOCAL …), or empty. */
  transactionSettings: string;
  /** The checkpoints table there. */
  table: string;
  topic: string;
  baseTopic: string;
  partition: number;
  /** The routed members, where they stand in the shared database (what they have applied anywhere). */
  positions: MemberPosition<T>[];
  messages: Map<string, KafkaMessage>;
  deadLetters: DeadLetterSender;
  /**
   * The members' checkpoints in the shared database now, per partition of this topic, 'moving'
   * while another transaction changes one (CheckpointStore.current).
   */
  sharedCheckpoints: (groups: string[], partitions: number[]) => Promise<Map<number, Map<string, string>> | 'moving'>;
}

/**
 * The transactions of one partition's batch in one tenant database: the records of the
 * organizations living there, with that database's own checkpoint of each member, in one transaction.
 *
 * The shared database's checkpoint is the consumer's position and commits after every tenant
 * database's transaction, so after a crash between them the batch is read again. This checkpoint
 * is what makes that harmless: its row is locked first (two consumers that both believe they own
 * the partition during a rebalance take turns), a record is applied only at or past it, and it only
 * ever moves forward. Under that lock the shared checkpoint is checked to be still the one this
 * batch was planned from: a runner that lost the partition writes nothing more here.
 */
export class TenantCommits<T> implements RunCommitter<ProjectedRecord<T>> {
  constructor(private readonly o: TenantCommitsOptions<T>) {}

  async commit(records: ProjectedRecord<T>[], next: string): Promise<void> {
    await this.transaction(
      next,
      async (tx, position, unseen) => {
        const own = ownRecords(position.member.name, unseen);
        if (own.length > 0) await position.member.apply({ tx, topic: this.o.baseTopic, records: own });
      },
      records,
    );
  }

  /** One refused record, member by member in a savepoint: those that refuse it dead-letter it. */
  async commitAlone(record: ProjectedRecord<T>, next: string): Promise<void> {
    await this.transaction(
      next,
      async (tx, position, unseen, refusals) => {
        const own = ownRecords(position.member.name, unseen);
        if (own.length === 0) return;
        await tx.query('SAVEPOINT member_apply');
        try {
          await position.member.apply({ tx, topic: this.o.baseTopic, records: own });
          await tx.query('RELEASE SAVEPOINT member_apply');
        } catch (error) {
          if (classifyFailure(error) !== 'content') throw error;
          await tx.query('ROLLBACK TO SAVEPOINT member_apply');
          refusals.push(this.refusal(record, position.member.name, error));
        }
      },
      [record],
    );
  }

  /**
   * The batches of several partitions of one topic in this database, in one transaction: each
   * partition's records go to the members that have not seen them, each member applies all of them
   * at once, and every (member, partition) checkpoint moves to its batch's end. The fixed cost of a
   * transaction (its statements, the checkpoint rows, the commit) is paid once for all of them.
   * Throws what the database threw: the caller then commits each batch on its own.
   */
  static async commitTogether<T>(
    batches: { commits: TenantCommits<T>; records: ProjectedRecord<T>[]; next: string }[],
  ): Promise<void> {
    const { o } = batches[0].commits;
    await o.dataSource.transaction(async (tx) => {
      if (o.transactionSettings) await tx.query(o.transactionSettings);
      const slots = batches.flatMap(({ commits, next }) =>
        commits.o.positions.map((position) => ({ position, partition: commits.o.partition, next })),
      );
      const stored = await lockCheckpoints(tx, o.table, o.topic, slots);
      await TenantCommits.assertStillOwned(batches.map(({ commits }) => commits));
      const applying = new Map<string, { member: MemberPosition<T>['member']; records: ProjectedRecord<T>[] }>();
      for (const { commits, records } of batches) {
        for (const position of commits.o.positions) {
          const unseen = unseenHere(position, stored.get(slotKey(position.member.group, commits.o.partition)), records);
          const own = ownRecords(position.member.name, unseen);
          if (own.length === 0) continue;
          const entry = applying.get(position.member.name) ?? { member: position.member, records: [] };
          applying.set(position.member.name, entry);
          // Not push(...own): a replay's batch holds tens of thousands of records, past what a call's arguments take.
          entry.records = entry.records.length === 0 ? own : entry.records.concat(own);
        }
      }
      for (const { member, records } of applying.values()) await member.apply({ tx, topic: o.baseTopic, records });
      await advanceCheckpoints(tx, o.table, o.topic, slots);
      await delayPoint('projector.in-tenant-transaction');
    });
  }

  private async transaction(
    next: string,
    applyTo: (
      tx: EntityManager,
      position: MemberPosition<T>,
      unseen: ProjectedRecord<T>[],
      refusals: DeadLetter[],
    ) => Promise<void>,
    records: ProjectedRecord<T>[],
  ): Promise<void> {
    await this.o.dataSource.transaction(async (tx) => {
      if (this.o.transactionSettings) await tx.query(this.o.transactionSettings);
      const refusals: DeadLetter[] = [];
      const slots = this.o.positions.map((position) => ({ position, partition: this.o.partition, next }));
      const stored = await lockCheckpoints(tx, this.o.table, this.o.topic, slots);
      await TenantCommits.assertStillOwned([this]);
      for (const position of this.o.positions) {
        const unseen = unseenHere(position, stored.get(slotKey(position.member.group, this.o.partition)), records);
        if (unseen.length > 0) await applyTo(tx, position, unseen, refusals);
      }
      await advanceCheckpoints(tx, this.o.table, this.o.topic, slots);
      await this.o.deadLetters.send(refusals);
      await delayPoint('projector.in-tenant-transaction');
    });
  }

  /**
   * Fencing, under this database's checkpoint locks: once the consumer's position moved under a
   * runner (a rebalance, a rebuild swapped in), it must not move these checkpoints past records it
   * never read. A position being moved right now counts as moved: waiting for that transaction here,
   * holding these locks, could wait on a rebuild that waits for them in turn. The batches sharing a
   * transaction (partitions of one topic) are checked in one read of the shared database.
   */
  private static async assertStillOwned<T>(batches: TenantCommits<T>[]): Promise<void> {
    const groups = [...new Set(batches.flatMap(({ o }) => o.positions.map((p) => p.member.group)))];
    const partitions = [...new Set(batches.map(({ o }) => o.partition))];
    const shared = await batches[0].o.sharedCheckpoints(groups, partitions);
    for (const { o } of batches) {
      const moved = o.positions.find(
        (p) => shared === 'moving' || (shared.get(o.partition)?.get(p.member.group) ?? null) !== p.expected,
      );
      if (moved) throw new FencedError(moved.member.group);
    }
  }

  private refusal(record: ProjectedRecord<T>, projection: string, error: unknown): DeadLetter {
    return refusalOf(this.o, record, projection, error, this.o.key);
  }
}

interface Slot<T> {
  position: MemberPosition<T>;
  partition: number;
  /** Where the slot's checkpoint moves. */
  next: string;
}

const slotKey = (group: string, partition: number) => `${group}\u0000${partition}`;

/** A batch's records a member has not applied here: at or past both its position and this database's checkpoint. */
function unseenHere<T>(position: MemberPosition<T>, stored: string | undefined, records: ProjectedRecord<T>[]) {
  const here = BigInt(stored ?? 0);
  const from = here > BigInt(position.start) ? here : BigInt(position.start);
  return records.filter((r) => BigInt(r.offset) >= from);
}

/**
 * The slots' checkpoints here (0 before their first batch), their rows locked until the commit, in
 * one order (by group, then partition) so two transactions take turns and never deadlock.
 */
async function lockCheckpoints<T>(
  tx: EntityManager,
  table: string,
  topic: string,
  slots: Slot<T>[],
): Promise<Map<string, string>> {
  const rows: { consumer_group: string; partition: number; next_offset: string }[] = await tx.query(
    prepared(`INSERT INTO ${table} AS c (consumer_group, topic, partition, next_offset)
     SELECT g, $3, p, 0 FROM unnest($1::text[], $2::int[]) AS k(g, p) ORDER BY g, p
     ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET next_offset = c.next_offset
     RETURNING consumer_group, partition, next_offset`),
    [slots.map((s) => s.position.member.group), slots.map((s) => s.partition), topic],
  );
  return new Map(rows.map((r) => [slotKey(r.consumer_group, r.partition), r.next_offset]));
}

/** Checkpoints only ever move forward: each one behind its slot's `next` moves there. */
async function advanceCheckpoints<T>(tx: EntityManager, table: string, topic: string, slots: Slot<T>[]) {
  await tx.query(
    prepared(`UPDATE ${table} c SET next_offset = k.next, updated_at = now()
       FROM unnest($1::text[], $2::int[], $4::bigint[]) AS k(g, p, next)
      WHERE c.consumer_group = k.g AND c.topic = $3 AND c.partition = k.p AND c.next_offset < k.next`),
    [slots.map((s) => s.position.member.group), slots.map((s) => s.partition), topic, slots.map((s) => s.next)],
  );
}
