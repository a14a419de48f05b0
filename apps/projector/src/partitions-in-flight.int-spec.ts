import { TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { createOrganization, eventCounts, eventStream, eventually, suiteEnv } from '@agentwatch/testing';
import { Client } from 'pg';
import { projectorConfigFromEnv } from './config';
import { startProjector } from './main';

// The deployment's partition count: test runs create their topics with fewer.
const PARTITIONS = 12;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('projector: every partition of a fetch in flight', () => {
  const env = suiteEnv('in-flight', { PROJECTOR_PORT: '0', HOST: '127.0.0.1', KAFKA_PARTITIONS: String(PARTITIONS) });
  const group = `${env.KAFKA_TOPIC_PREFIX}projector.events`;
  const topic = `${env.KAFKA_TOPIC_PREFIX}${TOPICS.ingestEvents.name}`;
  let db: Client;
  let holder: Client;
  let projector: Awaited<ReturnType<typeof startProjector>> | undefined;

  beforeAll(async () => {
    db = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    holder = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    await Promise.all([db.connect(), holder.connect()]);
    projector = await startProjector(projectorConfigFromEnv(env));
  });

  afterAll(async () => {
    await projector?.app.close();
    await Promise.all([db?.end(), holder?.end()]);
  });

  const checkpoints = async () =>
    (
      await db.query<{ partition: number; updated_at: Date }>(
        'SELECT partition, updated_at FROM projection_checkpoints WHERE consumer_group = $1 AND topic = $2',
        [group, topic],
      )
    ).rows;

  it('commits the batches of all twelve partitions waiting on the database in one transaction', async () => {
    const { orgId } = await createOrganization('in-flight org', env);
    // One session per event: every partition gets records, and a checkpoint row to lock.
    const stream = await eventStream(env, { sessions: 480 });
    try {
      await stream.produce(orgId, 240);
      await eventually(checkpoints, (rows) => rows.length === PARTITIONS, {
        timeoutMs: 60_000,
        what: 'a checkpoint in every partition',
      });

      // The checkpoints locked from outside: the batch committing first waits for them, and every
      // partition fetched meanwhile is handed to the consumer and queues behind it.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM projection_checkpoints WHERE consumer_group = $1 AND topic = $2 FOR UPDATE', [
        group,
        topic,
      ]);
      const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      // One request's records span every partition.
      await stream.produce(orgId, 480, 480);
      await eventually(
        async () =>
          (await db.query('SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rowCount,
        (blocked) => (blocked ?? 0) > 0,
        { timeoutMs: 30_000, intervalMs: 50, what: 'a batch waiting for the locked checkpoints' },
      );
      await pause(2000); // every partition's batch fetched and waiting
      await holder.query('COMMIT');
      await eventually(
        () => eventCounts(db, orgId),
        (c) => c.total === 720,
        { timeoutMs: 60_000, what: 'every event projected' },
      );
      expect(await eventCounts(db, orgId)).toEqual({ total: 720, distinct: 720 });

      // A transaction's checkpoint rows share its now(): the most partitions one transaction moved.
      const together = new Map<number, number>();
      for (const { updated_at } of await checkpoints()) {
        together.set(updated_at.getTime(), (together.get(updated_at.getTime()) ?? 0) + 1);
      }
      // Four in flight would commit at most four partitions' batches together.
      expect(Math.max(...together.values())).toBeGreaterThan(4);
    } finally {
      await stream.close();
      await holder.query('ROLLBACK').catch(() => undefined);
    }
  }, 180_000);
});
