import { KafkaMessage } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { DeadLetter, DeadLetterSender } from './dead-letters';
import { delayPoint } from './failpoint';
import { FencedError, MemberPosition, ownRecords, refusalOf } from './partition-commits';
import { RunCommitter } from './poison-isolation';
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
  /** The members' checkpoints in the shared database now, 'moving' while another transaction changes one. */
  sharedCheckpoints: (groups: string[]) => Promise<Map<string, string> | 'moving'>;
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
      const groups = this.o.positions.map((p) => p.member.group);
      const stored = await this.lock(tx, groups);
      // Fencing, under this database's locks: once the consumer's position moved under this runner
      // (a rebalance, a rebuild swapped in), it must not move these checkpoints past records it never
      // read. A position being moved right now counts as moved: waiting for that transaction here,
      // holding these locks, could wait on a rebuild that waits for them in turn.
      const shared = await this.o.sharedCheckpoints(groups);
      const moved = this.o.positions.find(
        (p) => shared === 'moving' || (shared.get(p.member.group) ?? null) !== p.expected,
      );
      if (moved) throw new FencedError(moved.member.group);
      for (const position of this.o.positions) {
        const here = BigInt(stored.get(position.member.group) ?? 0);
        const from = here > BigInt(position.start) ? here : BigInt(position.start);
        const unseen = records.filter((r) => BigInt(r.offset) >= from);
        if (unseen.length > 0) await applyTo(tx, position, unseen, refusals);
      }
      await this.advance(tx, groups, next);
      await this.o.deadLetters.send(refusals);
      await delayPoint('projector.in-tenant-transaction');
    });
  }

  /**
   * The members' checkpoints here (0 before their first batch), their rows locked until the commit,
   * in one order (by group) so two transactions on this partition take turns and never deadlock.
   */
  private async lock(tx: EntityManager, groups: string[]): Promise<Map<string, string>> {
    const rows: { consumer_group: string; next_offset: string }[] = await tx.query(
      `INSERT INTO ${this.o.table} AS c (consumer_group, topic, partition, next_offset)
       SELECT g, $2, $3, 0 FROM unnest($1::text[]) AS g ORDER BY g
       ON CONFLICT (consumer_group, topic, partition) DO UPDATE SET next_offset = c.next_offset
       RETURNING consumer_group, next_offset`,
      [groups, this.o.topic, this.o.partition],
    );
    return new Map(rows.map((r) => [r.consumer_group, r.next_offset]));
  }

  /** Checkpoints only ever move forward: one behind `next` moves there. */
  private async advance(tx: EntityManager, groups: string[], next: string): Promise<void> {
    await tx.query(
      `UPDATE ${this.o.table} SET next_offset = $4, updated_at = now()
        WHERE consumer_group = ANY($1) AND topic = $2 AND partition = $3 AND next_offset < $4`,
      [groups, this.o.topic, this.o.partition, next],
    );
  }

  private refusal(record: ProjectedRecord<T>, projection: string, error: unknown): DeadLetter {
    return refusalOf(this.o, record, projection, error, this.o.key);
  }
}
