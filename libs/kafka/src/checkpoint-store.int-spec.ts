import { databaseConfigFromEnv } from '@agentwatch/db';
import { suiteEnv } from '@agentwatch/testing';
import { DataSource } from 'typeorm';
import { CheckpointStore } from './checkpoint-store';
import { kafkaSettingsFromEnv } from './kafka.settings';

describe('CheckpointStore.current (the fencing read of a tenant transaction)', () => {
  const env = suiteEnv('checkpoint-store');
  const prefix = kafkaSettingsFromEnv('checkpoint-store', env).prefix;
  const [events, scores, absent] = ['events', 'scores', 'absent'].map((g) => `${prefix}fence-${g}`);
  const topic = `${prefix}fence.v1`;
  let dataSource: DataSource;
  let store: CheckpointStore;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv(env).projectorUrl }).initialize();
    store = new CheckpointStore(dataSource);
    await dataSource.query(
      `INSERT INTO projection_checkpoints (consumer_group, topic, partition, next_offset)
       VALUES ($1, $3, 0, 42), ($2, $3, 0, 7), ($1, $3, 2, 99)`,
      [events, scores, topic],
    );
  });

  afterAll(async () => {
    await dataSource.query('DELETE FROM projection_checkpoints WHERE topic = $1', [topic]);
    await dataSource.destroy();
  });

  it('reads the named groups’ checkpoints in each named partition, leaving out a group without one', async () => {
    const current = await store.current([events, scores, absent], topic, [0, 1, 2]);
    expect(current).toEqual(
      new Map([
        [
          0,
          new Map([
            [events, '42'],
            [scores, '7'],
          ]),
        ],
        [1, new Map()],
        [2, new Map([[events, '99']])],
      ]),
    );
    expect(await store.current([scores], topic, [2])).toEqual(new Map([[2, new Map()]]));
  });

  it('says "moving", without waiting, while another transaction is changing one of them', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(
        'UPDATE projection_checkpoints SET next_offset = 43 WHERE consumer_group = $1 AND topic = $2 AND partition = 0',
        [events, topic],
      );
      expect(await store.current([events, scores], topic, [0])).toBe('moving');
      // One locked row makes the whole read 'moving', whichever partitions it names with it.
      expect(await store.current([events], topic, [2, 0])).toBe('moving');
      expect(await store.current([scores], topic, [0])).toEqual(new Map([[0, new Map([[scores, '7']])]]));
      expect(await store.current([events], topic, [2])).toEqual(new Map([[2, new Map([[events, '99']])]]));
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('commits its row locks without waiting for the WAL to be flushed', async () => {
    // A synchronous commit returns once the WAL is flushed past its commit record, so past every
    // position written before the statement began: the flush position can then never be behind the
    // insert position read before the statement. An asynchronous one leaves the flush to the WAL
    // writer (every 200 ms), so the previous round's lock commit is mostly still unflushed.
    const lsn = async (which: 'insert' | 'flush'): Promise<string> =>
      (await dataSource.query(`SELECT pg_current_wal_${which}_lsn()::text AS lsn`))[0].lsn;
    let unflushed = 0;
    for (let i = 0; i < 50; i++) {
      const before = await lsn('insert');
      await store.current([events, scores], topic, [0]);
      const [{ behind }] = await dataSource.query('SELECT $1::pg_lsn < $2::pg_lsn AS behind', [
        await lsn('flush'),
        before,
      ]);
      if (behind) unflushed += 1;
    }
    expect(unflushed).toBeGreaterThan(0);
    // Only the statement's own transaction commits asynchronously, not the session afterwards.
    const [{ unchanged }] = await dataSource.query(
      "SELECT setting = reset_val AS unchanged FROM pg_settings WHERE name = 'synchronous_commit'",
    );
    expect(unchanged).toBe(true);
  });
});
