import { databaseConfigFromEnv } from '@agentwatch/db';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { Admin, Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { EventPublisher } from './event-publisher';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { ProjectionRunner } from './projection-runner';
import { createTopic } from './topic-admin';

describe('ProjectionRunner transactions', () => {
  const env = suiteEnv('projection-runner');
  const settings = kafkaSettingsFromEnv('projection-runner', env);
  const topic = 'runner-check.v1';
  const asyncGroup = `${settings.prefix}runner-check.async`;
  const syncGroup = `${settings.prefix}runner-check.sync`;
  const idleGroup = `${settings.prefix}runner-check.idle`;
  let kafka: Kafka;
  let admin: Admin;
  let dataSource: DataSource;
  let publisher: EventPublisher;

  beforeAll(async () => {
    kafka = createKafka(settings);
    admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, settings.prefix + topic, 2);
    dataSource = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv(env).projectorUrl }).initialize();
    publisher = new EventPublisher(kafka, settings);
    await publisher.onModuleInit();
    await publisher.publish(
      topic,
      [1, 2, 3].map((n) => ({
        key: `k${n}`,
        value: JSON.stringify({ n }),
        headers: { ce_specversion: '1.0', ce_id: `id-${n}`, ce_type: 'check', ce_time: '', org_id: 'o' },
      })),
    );
  });

  afterAll(async () => {
    await publisher.onApplicationShutdown();
    await dataSource.query('DELETE FROM projection_checkpoints WHERE consumer_group = ANY($1)', [
      [asyncGroup, syncGroup, idleGroup],
    ]);
    await dataSource.destroy();
    await admin.deleteTopics({ topics: [settings.prefix + topic] }).catch(() => {});
    await admin.disconnect();
  });

  /**
   * Projects the topic's three records with a runner of its own; returns what its transactions saw and
   * what `whileRunning` found once they were projected, before the runner stops.
   */
  async function projectWith<R>(group: string, asynchronousCommit: boolean, whileRunning?: () => Promise<R>) {
    const seen: { n: number; synchronousCommit: string }[] = [];
    const runner = new ProjectionRunner(kafka, dataSource, {
      name: group,
      consumerGroup: group,
      topics: { [topic]: z.object({ n: z.number() }) },
      members: [
        {
          name: group,
          group,
          topics: [topic],
          apply: async ({ tx, records }) => {
            const [{ synchronous_commit }] = await tx.query('SHOW synchronous_commit');
            for (const r of records) seen.push({ n: r.payload.n, synchronousCommit: synchronous_commit });
          },
        },
      ],
      prefix: settings.prefix,
      sessionTimeoutMs: 10_000,
      asynchronousCommit,
    });
    await runner.start();
    try {
      await eventually(
        async () => seen.length,
        (count) => count === 3,
        { timeoutMs: 30_000, what: `three records projected by ${group}` },
      );
      // `seen` fills inside the transactions: their commits (and checkpoints) may still be on their way.
      const next = await eventually(
        async () =>
          (
            await dataSource.query(
              'SELECT coalesce(sum(next_offset::bigint), 0)::int AS next FROM projection_checkpoints WHERE consumer_group = $1',
              [group],
            )
          )[0].next as number,
        (sum) => sum >= 3,
        { timeoutMs: 30_000, what: `the checkpoints of ${group} past three records` },
      );
      return { seen, next, found: await whileRunning?.() };
    } finally {
      await runner.stop();
    }
  }

  const serverSetting = async () => {
    const [outside] = await dataSource.query(
      `SELECT current_setting('synchronous_commit') AS now, reset_val AS server
         FROM pg_settings WHERE name = 'synchronous_commit'`,
    );
    return outside as { now: string; server: string };
  };

  it('commit asynchronously when asked (rows and checkpoint together), and only their own transactions do', async () => {
    const { seen, next } = await projectWith(asyncGroup, true);
    expect(seen.map((s) => s.n).sort()).toEqual([1, 2, 3]);
    expect(seen.every((s) => s.synchronousCommit === 'off')).toBe(true);
    expect(next).toBe(3);
    // SET LOCAL: the pool's other transactions (the API's, the checkpoint reads) keep the server's setting.
    const outside = await serverSetting();
    expect(outside.now).toBe(outside.server);
    expect(outside.now).not.toBe('off');
  });

  it('commit with the server setting otherwise (a journal of record must wait for the flush)', async () => {
    const { seen, next } = await projectWith(syncGroup, false);
    const { server } = await serverSetting();
    expect(server).not.toBe('off');
    expect(seen.map((s) => s.synchronousCommit)).toEqual([server, server, server]);
    expect(next).toBe(3);
  });

  it("let Kafka's committed offsets follow the checkpoints in the background, while the consumer idles", async () => {
    const committedSum = async () => {
      const [committed] = await admin.fetchOffsets({ groupId: idleGroup, topics: [settings.prefix + topic] });
      return committed.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
    };
    // No batch commits them on its way and nothing stops the runner first: only the committer's own
    // request, within an interval of the last batch, can bring Kafka's offsets to the checkpoints.
    const { next, found } = await projectWith(idleGroup, true, () =>
      eventually(committedSum, (sum) => sum === 3, { timeoutMs: 5_000, what: "Kafka's committed offsets" }),
    );
    expect(next).toBe(3);
    expect(found).toBe(3);
  });
});
