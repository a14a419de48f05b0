import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { deadLetterTopic } from '@agentwatch/contracts';
import { databaseConfigFromEnv, ownerDataSource } from '@agentwatch/db';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { Admin, Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { EventPublisher } from './event-publisher';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { metrics } from './metrics';
import { ProjectionRunner } from './projection-runner';
import { RunnerMember } from './projection-types';
import { createTopic } from './topic-admin';
import { readRanges } from './topic-export';
import { ExportRecord } from './topic-export-format';

const ORG_A = '0190aaaa-0000-7000-8000-00000000000a';
const ORG_B = '0190bbbb-0000-7000-8000-00000000000b';
const run = promisify(execFile);

describe('a record the database refuses', () => {
  const env = suiteEnv('dead-letters');
  const settings = kafkaSettingsFromEnv('dead-letters', env);
  const group = (name: string) => `${settings.prefix}dead-letters.${name}`;
  const runners: ProjectionRunner<{ n: number }>[] = [];
  let kafka: Kafka;
  let admin: Admin;
  let owner: DataSource;
  let projector: DataSource;
  let publisher: EventPublisher;

  beforeAll(async () => {
    kafka = createKafka(settings);
    admin = kafka.admin();
    await admin.connect();
    for (const topic of ['refused.v1', 'shared.v1', 'outage.v1', 'upsert.v1']) {
      await createTopic(admin, settings.prefix + topic, 1);
      await createTopic(admin, settings.prefix + deadLetterTopic(topic), 1);
    }
    const config = databaseConfigFromEnv(env);
    owner = await ownerDataSource(config).initialize();
    // Tables of their own, not the ingest read models: the constraint is the test's, not a contract's.
    for (const table of ['refused_rows', 'shared_strict', 'shared_lenient', 'outage_rows']) {
      const check = table === 'shared_lenient' ? '' : ' CHECK (n >= 0)';
      await owner.query(
        `CREATE TABLE ${table} (org_id text NOT NULL, n integer NOT NULL${check}, source_offset bigint)`,
      );
      await owner.query(`GRANT SELECT, INSERT ON ${table} TO agentwatch_projector`);
    }
    await owner.query(
      'CREATE TABLE upsert_rows (org_id text, n integer, seen integer NOT NULL, PRIMARY KEY (org_id, n))',
    );
    await owner.query('GRANT SELECT, INSERT, UPDATE ON upsert_rows TO agentwatch_projector');
    projector = await new DataSource({ type: 'postgres', url: config.projectorUrl }).initialize();
    publisher = new EventPublisher(kafka, settings);
    await publisher.onModuleInit();
  });

  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await publisher.onApplicationShutdown();
    await owner.query(
      'DROP TABLE IF EXISTS refused_rows, shared_strict, shared_lenient, outage_rows, outage_away, upsert_rows',
    );
    await owner.query(`DELETE FROM projection_checkpoints WHERE consumer_group LIKE $1`, [`${group('')}%`]);
    await Promise.all([owner.destroy(), projector.destroy()]);
    await admin.disconnect();
  });

  const publish = (topic: string, items: { org: string; n: number }[]) =>
    publisher.publish(
      topic,
      items.map(({ org, n }) => ({
        key: 'one-partition',
        value: JSON.stringify({ n }),
        headers: { ce_specversion: '1.0', ce_id: `${topic}-${n}`, ce_type: 'check', ce_time: '', org_id: org },
      })),
    );

  /** One multi-row INSERT per batch, as the real projections write: one refused row fails the whole statement. */
  const member = (name: string, topic: string, table: string): RunnerMember<{ n: number }> => ({
    name,
    group: group(name),
    topics: [topic],
    apply: async ({ tx, records }) => {
      await tx.query(
        `INSERT INTO ${table} (org_id, n, source_offset) SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[])`,
        [records.map((r) => r.orgId), records.map((r) => r.payload.n), records.map((r) => r.offset)],
      );
    },
  });

  async function start(name: string, topic: string, members: RunnerMember<{ n: number }>[]) {
    const runner = new ProjectionRunner(kafka, projector, {
      name,
      consumerGroup: group(name),
      topics: { [topic]: z.object({ n: z.number() }) },
      members,
      prefix: settings.prefix,
      sessionTimeoutMs: 10_000,
    });
    runners.push(runner);
    await runner.start();
  }

  const ns = async (table: string) =>
    ((await owner.query(`SELECT n FROM ${table} ORDER BY n`)) as { n: number }[]).map((r) => r.n);

  const checkpoint = async (name: string, topic: string) =>
    (
      await owner.query('SELECT next_offset FROM projection_checkpoints WHERE consumer_group = $1 AND topic = $2', [
        group(name),
        settings.prefix + topic,
      ])
    )[0]?.next_offset as string | undefined;

  const highWatermark = async (topic: string) => (await admin.fetchTopicOffsets(settings.prefix + topic))[0].high;

  async function deadLetters(topic: string): Promise<ExportRecord[]> {
    const dlq = settings.prefix + deadLetterTopic(topic);
    const ranges = (await admin.fetchTopicOffsets(dlq)).map((o) => ({
      partition: o.partition,
      start: BigInt(o.low),
      end: BigInt(o.high),
    }));
    const found: ExportRecord[] = [];
    await readRanges(kafka, { topic: dlq, prefix: settings.prefix, ranges }, { update: () => {} }, async (r) => {
      found.push(r);
      return true;
    });
    return found;
  }

  const refusedCount = async (projection: string) =>
    (await metrics.deadLetters.get()).values.find(
      (v) => v.labels.projection === projection && v.labels.reason === 'refused',
    )?.value ?? 0;

  const good = Array.from({ length: 12 }, (_, i) => ({ org: i % 2 ? ORG_B : ORG_A, n: i + 1 }));

  it('dead-letters it with its coordinates and why, lands every other record once, and keeps the partition flowing', async () => {
    const counted = await refusedCount('refused');
    await publish('refused.v1', [...good.slice(0, 7), { org: ORG_B, n: -1 }, ...good.slice(7)]);
    await start('refused', 'refused.v1', [member('refused', 'refused.v1', 'refused_rows')]);

    const high = await highWatermark('refused.v1');
    await eventually(
      () => checkpoint('refused', 'refused.v1'),
      (c) => c === high,
      { what: 'checkpoint at the end' },
    );
    expect(await ns('refused_rows')).toEqual(good.map((g) => g.n));
    const orgs = await owner.query('SELECT org_id, count(*)::int AS n FROM refused_rows GROUP BY 1 ORDER BY 1');
    expect(orgs).toEqual([
      { org_id: ORG_A, n: 6 },
      { org_id: ORG_B, n: 6 },
    ]);

    const [dead, ...more] = await deadLetters('refused.v1');
    expect(more).toEqual([]);
    expect(dead.value).toBe('{"n":-1}');
    expect(dead.key).toBe('one-partition');
    expect(dead.headers).toEqual({
      ce_specversion: '1.0',
      ce_id: 'refused.v1--1',
      ce_type: 'check',
      ce_time: '',
      org_id: ORG_B,
      dlq_error: expect.stringContaining('refused_rows_n_check'),
      dlq_sqlstate: '23514',
      dlq_reason: 'refused',
      dlq_source_topic: `${settings.prefix}refused.v1`,
      dlq_source_partition: '0',
      dlq_source_offset: '7',
      dlq_org_id: ORG_B,
      dlq_projection: 'refused',
      dlq_consumer_group: group('refused'),
      dlq_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await refusedCount('refused')).toBe(counted + 1);

    await publish(
      'refused.v1',
      [13, 14].map((n) => ({ org: ORG_A, n })),
    );
    await eventually(
      () => ns('refused_rows'),
      (rows) => rows.length === 14,
      { what: 'later records projected' },
    );
    expect(await ns('refused_rows')).toEqual([...good.map((g) => g.n), 13, 14]);
  });

  it('lets the projections that accept it keep it when one projection of the consumer refuses it', async () => {
    await publish('shared.v1', [...good.slice(0, 3), { org: ORG_A, n: -5 }, ...good.slice(3, 5)]);
    await start('shared', 'shared.v1', [
      member('strict', 'shared.v1', 'shared_strict'),
      member('lenient', 'shared.v1', 'shared_lenient'),
    ]);
    const high = await highWatermark('shared.v1');
    await eventually(
      () => checkpoint('strict', 'shared.v1'),
      (c) => c === high,
      { what: 'strict checkpoint' },
    );
    expect(await checkpoint('lenient', 'shared.v1')).toBe(high);
    expect(await ns('shared_strict')).toEqual([1, 2, 3, 4, 5]);
    expect(await ns('shared_lenient')).toEqual([-5, 1, 2, 3, 4, 5]);
    const dead = await deadLetters('shared.v1');
    expect(dead.map((d) => [d.headers.dlq_projection, d.headers.dlq_source_offset])).toEqual([['strict', '3']]);
  });

  it('retries a transient failure (the table briefly gone) until the batch lands once, and dead-letters nothing', async () => {
    await publish(
      'outage.v1',
      [1, 2].map((n) => ({ org: ORG_A, n })),
    );
    await start('outage', 'outage.v1', [member('outage', 'outage.v1', 'outage_rows')]);
    await eventually(
      () => ns('outage_rows'),
      (rows) => rows.length === 2,
      { what: 'records before the outage' },
    );

    await owner.query('ALTER TABLE outage_rows RENAME TO outage_away'); // 42P01 undefined_table: transient
    await publish(
      'outage.v1',
      [3, 4, 5].map((n) => ({ org: ORG_B, n })),
    );
    const high = await highWatermark('outage.v1');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await checkpoint('outage', 'outage.v1')).toBe('2');
    await owner.query('ALTER TABLE outage_away RENAME TO outage_rows');

    await eventually(
      () => checkpoint('outage', 'outage.v1'),
      (c) => c === high,
      { timeoutMs: 60_000, what: 'after' },
    );
    expect(await ns('outage_rows')).toEqual([1, 2, 3, 4, 5]);
    expect(await deadLetters('outage.v1')).toEqual([]);
  });

  it('lands both records of a batch refused only for holding them together (one upsert naming a row twice)', async () => {
    // Published before the runner starts, in one produce: the four records arrive as one batch.
    await publish(
      'upsert.v1',
      [1, 2, 1, 3].map((n) => ({ org: ORG_A, n })),
    );
    await start('upsert', 'upsert.v1', [
      {
        ...member('upsert', 'upsert.v1', ''),
        apply: async ({ tx, records }) => {
          await tx.query(
            `INSERT INTO upsert_rows (org_id, n, seen) SELECT o, n, 1 FROM unnest($1::text[], $2::int[]) AS r(o, n)
             ON CONFLICT (org_id, n) DO UPDATE SET seen = upsert_rows.seen + 1`, // 21000 when n repeats
            [records.map((r) => r.orgId), records.map((r) => r.payload.n)],
          );
        },
      },
    ]);
    const high = await highWatermark('upsert.v1');
    await eventually(
      () => checkpoint('upsert', 'upsert.v1'),
      (c) => c === high,
      { what: 'upsert checkpoint' },
    );
    expect(await owner.query('SELECT n, seen FROM upsert_rows ORDER BY n')).toEqual([
      { n: 1, seen: 2 },
      { n: 2, seen: 1 },
      { n: 3, seen: 1 },
    ]);
    expect(await deadLetters('upsert.v1')).toEqual([]);
  });

  describe('agentwatch dlq (the built CLI)', () => {
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [path.resolve('dist/apps/cli/src/main.js'), 'dlq', ...args], {
        env,
        timeout: 60_000,
      });
      return stdout;
    };

    it('lists and shows the dead letter, redrives it once the cause is fixed, and never twice', async () => {
      const listed = await cli('list', '--topic', 'refused.v1');
      expect(listed).toContain(
        `refused.v1.dlq 0 0  source=refused.v1/0@7  org=${ORG_B}  projection=refused  reason=refused  sqlstate=23514`,
      );
      expect(listed).toContain('refused.v1.dlq: 1 dead letter(s)');
      const everything = await cli('list');
      expect(everything).toContain('shared.v1.dlq: 1 dead letter(s)');
      expect(everything).not.toContain('outage.v1.dlq');

      const shown = JSON.parse(await cli('show', 'refused.v1.dlq', '0', '0'));
      expect(shown).toMatchObject({ partition: 0, offset: '0', key: 'one-partition', value: { n: -1 } });
      expect(shown.headers).toMatchObject({ org_id: ORG_B, dlq_sqlstate: '23514', dlq_source_offset: '7' });

      expect(await cli('redrive', '--topic', 'refused.v1', '--dry-run')).toContain('dry run: 1 to redrive');
      expect(await cli('redrive', '--topic', 'refused.v1', '--org', ORG_A, '--dry-run')).toContain('dry run: 0 to');
      expect(await ns('refused_rows')).not.toContain(-1);
      await owner.query('ALTER TABLE refused_rows DROP CONSTRAINT refused_rows_n_check');
      const first = await cli('redrive', '--topic', 'refused.v1', '--org', ORG_B);
      expect(first).toMatch(/redriven refused\.v1\.dlq 0 0 .* to=refused\.v1\/0@\d+/);
      expect(first).toContain('redriven 1, 0 redriven before');
      await eventually(
        () => ns('refused_rows'),
        (rows) => rows.includes(-1),
        { what: 'the redriven record' },
      );

      expect(await cli('redrive', '--topic', 'refused.v1')).toContain('redriven 0, 1 redriven before');
      expect(await cli('list', '--topic', 'refused.v1')).toContain('  redriven  ');
      const high = await highWatermark('refused.v1');
      await eventually(
        () => checkpoint('refused', 'refused.v1'),
        (c) => c === high,
        { what: 'checkpoint' },
      );
      expect((await ns('refused_rows')).filter((n) => n === -1)).toEqual([-1]);
    });
  });
});
