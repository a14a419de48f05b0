import { DataSource, EntityManager } from 'typeorm';
import { prepared } from './prepared';
import { sqlstateOf } from './refusal';

const LOCK_NOT_AVAILABLE = '55P03';

/**
 * `(consumer_group, topic, partition) → next_offset`, written in the same transaction as the
 * projection's rows, so a batch and its checkpoint commit together or not at all.
 */
export class CheckpointStore {
  /** `table` is the checkpoints table, schema-qualified for a rebuild. */
  constructor(
    private readonly dataSource: DataSource,
    readonly table = 'projection_checkpoints',
  ) {}

  async load(group: string, topic: string, partition: number): Promise<string | null> {
    const rows: { next_offset: string }[] = await this.dataSource.query(
      `SELECT next_offset FROM ${this.table} WHERE consumer_group = $1 AND topic = $2 AND partition = $3`,
      [group, topic, partition],
    );
    return rows[0]?.next_offset ?? null;
  }

  /**
   * The members' checkpoints in each of the partitions (a group without one is absent from its
   * partition's map), or 'moving' while a transaction is changing any of them (a commit, a rebuild's
   * swap): never waits for that transaction. What a tenant database's transaction checks its
   * positions by: one statement for all its members and all the partitions whose batches share it,
   * not one per partition (a round trip to the shared database per partition and tenant database in
   * every fetch, made while the tenant's checkpoint rows are locked).
   *
   * Locking rows gives the statement's transaction an id, so on a server with `synchronous_commit =
   * on` its commit would wait for a WAL flush, once per tenant transaction: sampled in the bench's
   * freshness phase, a backend was waiting there in a sixth of the samples. The locks go at that
   * commit and leave nothing to keep, so the statement commits asynchronously (`set_config` with
   * `is_local` lasts until the end of its own transaction: one round trip, not a BEGIN … COMMIT).
   */
  async current(
    groups: string[],
    topic: string,
    partitions: readonly number[],
  ): Promise<Map<number, Map<string, string>> | 'moving'> {
    try {
      const rows: { consumer_group: string; partition: number; next_offset: string }[] = await this.dataSource.query(
        prepared(`SELECT consumer_group, partition, next_offset FROM ${this.table}
          WHERE consumer_group = ANY($1) AND topic = $2 AND partition = ANY($3::int[])
            AND set_config('synchronous_commit', 'off', true) IS NOT NULL
          FOR SHARE NOWAIT`),
        [groups, topic, partitions],
      );
      const current = new Map(partitions.map((partition) => [partition, new Map<string, string>()]));
      for (const row of rows) current.get(row.partition)?.set(row.consumer_group, row.next_offset);
      return current;
    } catch (error) {
      if (sqlstateOf(error) === LOCK_NOT_AVAILABLE) return 'moving';
      throw error;
    }
  }

  /**
   * Compare-and-set, for every member of a batch in one statement: moves each group's checkpoint
   * from its `expected` (null: none yet) to `next`. Returns the groups that another consumer moved
   * first: this one no longer owns the partition for them and must not write.
   */
  async advance(
    tx: EntityManager,
    topic: string,
    partition: number,
    members: { group: string; expected: string | null }[],
    next: string,
  ): Promise<string[]> {
    const moved: { consumer_group: string }[] = await tx.query(
      prepared(`WITH wanted AS (SELECT * FROM unnest($1::text[], $2::bigint[]) AS w(consumer_group, expected)),
       updated AS (
         UPDATE ${this.table} c SET next_offset = $5, updated_at = now() FROM wanted w
          WHERE c.consumer_group = w.consumer_group AND c.topic = $3 AND c.partition = $4
            AND c.next_offset = w.expected
         RETURNING c.consumer_group),
       created AS (
         INSERT INTO ${this.table} (consumer_group, topic, partition, next_offset)
         SELECT consumer_group, $3, $4, $5 FROM wanted WHERE expected IS NULL
         ON CONFLICT (consumer_group, topic, partition) DO NOTHING
         RETURNING consumer_group)
       SELECT consumer_group FROM updated UNION ALL SELECT consumer_group FROM created`),
      [members.map((m) => m.group), members.map((m) => m.expected), topic, partition, next],
    );
    const advanced = new Set(moved.map((m) => m.consumer_group));
    return members.map((m) => m.group).filter((group) => !advanced.has(group));
  }
}
