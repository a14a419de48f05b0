import { DataSource, EntityManager } from 'typeorm';
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
   * The checkpoint, or 'moving' while a transaction is changing it (a commit, a rebuild's swap):
   * never waits for that transaction. What a tenant database's transaction checks its position by.
   */
  async current(group: string, topic: string, partition: number): Promise<string | null | 'moving'> {
    try {
      const rows: { next_offset: string }[] = await this.dataSource.query(
        `SELECT next_offset FROM ${this.table} WHERE consumer_group = $1 AND topic = $2 AND partition = $3
           FOR SHARE NOWAIT`,
        [group, topic, partition],
      );
      return rows[0]?.next_offset ?? null;
    } catch (error) {
      if (sqlstateOf(error) === LOCK_NOT_AVAILABLE) return 'moving';
      throw error;
    }
  }

  /**
   * Compare-and-set: moves the checkpoint from `expected` (null: none yet) to `next`. False means
   * another consumer moved it first, so this one no longer owns the partition and must not write.
   */
  async advance(
    tx: EntityManager,
    group: string,
    topic: string,
    partition: number,
    expected: string | null,
    next: string,
  ): Promise<boolean> {
    const written: unknown[] = await tx.query(
      `INSERT INTO ${this.table} AS c (consumer_group, topic, partition, next_offset)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (consumer_group, topic, partition)
       DO UPDATE SET next_offset = EXCLUDED.next_offset, updated_at = now()
       WHERE c.next_offset = $5
       RETURNING next_offset`,
      [group, topic, partition, next, expected],
    );
    return written.length === 1;
  }
}
