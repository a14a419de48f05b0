import { randomUUID } from 'node:crypto';
import { deadLetterTopic, toWire } from '@agentwatch/contracts';
import {
  createKafka,
  createTopic,
  kafkaSettingsFromEnv,
  metrics,
  PayloadOpener,
  ProjectedRecord,
  ProjectionBatch,
  ProjectionRunner,
  SEALED_HEADER,
} from '@agentwatch/kafka';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { Admin, Kafka } from 'kafkajs';
import { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { CellsRecordRouter } from './record-router';
import {
  CELL_SERVER_ADMIN_URL,
  projectorDataSource,
  RoutedDataPlane,
  route,
  sharedTestDatabase,
  TestDatabase,
  tenantTestDatabase,
} from './testing/routed-databases';

// The projection runner writing each organization's records into its own database, across the test
// run's server and the second cell's, with the real route directory: the read model is a plain table
// without any unique key, so a record applied twice shows as two rows.

const TABLE = 'cells_write_check';
const payload = z.object({ n: z.number() });
type Payload = z.infer<typeof payload>;

/** Opens values sealed "with a key": `live:<json>` opens, `gone:…` was sealed with a destroyed key. */
class PrefixOpener extends PayloadOpener {
  async open(_orgId: string, value: Buffer): Promise<string | null> {
    const text = value.toString();
    return text.startsWith('live:') ? text.slice('live:'.length) : null;
  }
}

describe('routed projection runner (two servers, exactly once across databases)', () => {
  const env = suiteEnv('record-router');
  const settings = kafkaSettingsFromEnv('record-router', env);
  const shared = sharedTestDatabase(env);
  let tenantA: TestDatabase; // the test run's server
  let tenantB: TestDatabase; // the second cell
  let tenantC: TestDatabase; // the second cell, routed late (held until then)
  let kafka: Kafka;
  let admin: Admin;
  let plane: RoutedDataPlane;
  let sharedProjector: DataSource;
  const runners: ProjectionRunner<Payload>[] = [];
  const orgS = randomUUID(); // self-service: the shared database
  const orgA = randomUUID();
  const orgB = randomUUID();

  beforeAll(async () => {
    tenantA = await tenantTestDatabase(env, shared.config.adminUrl, 'rr_a');
    tenantB = await tenantTestDatabase(env, CELL_SERVER_ADMIN_URL, 'rr_b');
    tenantC = await tenantTestDatabase(env, CELL_SERVER_ADMIN_URL, 'rr_c');
    for (const db of [shared, tenantA, tenantB, tenantC]) {
      await db.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (org_id uuid NOT NULL, n int NOT NULL, src text NOT NULL)`);
      await db.query(`GRANT SELECT, INSERT ON ${TABLE} TO agentwatch_projector`);
    }
    kafka = createKafka(settings);
    admin = kafka.admin();
    await admin.connect();
    plane = new RoutedDataPlane(kafka, settings, shared.config.rolePassword);
    await plane.start();
    await plane.publishRoute(route(orgA, tenantA, 'active'));
    await plane.publishRoute(route(orgB, tenantB, 'active'));
    sharedProjector = await projectorDataSource(env);
  });

  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await sharedProjector?.destroy();
    await plane?.stop();
    await admin?.disconnect();
    await shared.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await Promise.all([tenantA, tenantB, tenantC].map((db) => db?.drop()));
  });

  type Hook = (tx: EntityManager, database: string, records: ProjectedRecord<Payload>[]) => Promise<void>;

  async function startRunner(topic: string, group: string, hook?: Hook, opener?: PayloadOpener) {
    const runner = new ProjectionRunner<Payload>(kafka, sharedProjector, {
      name: group,
      consumerGroup: settings.prefix + group,
      topics: { [topic]: payload },
      members: [
        {
          name: group,
          group: settings.prefix + group,
          topics: [topic],
          apply: async ({ tx, records }: ProjectionBatch<Payload>) => {
            const [{ db }] = await tx.query('SELECT current_database() AS db');
            await hook?.(tx, db, records);
            await tx.query(
              `INSERT INTO ${TABLE} (org_id, n, src) SELECT o, n, $3 FROM unnest($1::uuid[], $2::int[]) AS r(o, n)`,
              [records.map((r) => r.orgId), records.map((r) => r.payload.n), topic],
            );
          },
        },
      ],
      prefix: settings.prefix,
      sessionTimeoutMs: 10_000,
      router: new CellsRecordRouter(plane.directory, plane.databases),
      opener,
      holdBackoffMs: 300,
    });
    runners.push(runner);
    await runner.start();
    return runner;
  }

  const record = (orgId: string, n: number, value?: string) => {
    const wire = toWire({
      id: randomUUID(),
      type: 'check',
      orgId,
      time: new Date().toISOString(),
      key: `${orgId}/${n}`,
      payload: { n },
    });
    return value === undefined ? wire : { ...wire, value, headers: { ...wire.headers, [SEALED_HEADER]: 'v1' } };
  };

  const publish = (topic: string, records: ReturnType<typeof record>[]) => plane.publisher.publish(topic, records);

  /** Per database: org → [rows, distinct n] of one topic's records. */
  async function landed(topic: string) {
    const result: Record<string, Record<string, [number, number]>> = {};
    for (const [name, db] of Object.entries({ shared, a: tenantA, b: tenantB, c: tenantC })) {
      const rows = await db.query<{ org_id: string; rows: number; distinct: number }>(
        `SELECT org_id, count(*)::int AS rows, count(DISTINCT n)::int AS distinct FROM ${TABLE} WHERE src = $1 GROUP BY org_id`,
        [topic],
      );
      result[name] = Object.fromEntries(rows.map((r) => [r.org_id, [r.rows, r.distinct]]));
    }
    return result;
  }

  const expectOnly = (counts: Record<string, [number, number]>, orgId: string, n: number) =>
    expect(counts).toEqual({ [orgId]: [n, n] });

  async function newTopic(name: string, partitions: number): Promise<string> {
    await createTopic(admin, settings.prefix + name, partitions);
    return name;
  }

  const sharedCheckpoint = async (group: string, topic: string) =>
    (
      await shared.query<{ next: string }>(
        'SELECT coalesce(sum(next_offset), 0)::text AS next FROM projection_checkpoints WHERE consumer_group = $1 AND topic = $2',
        [settings.prefix + group, settings.prefix + topic],
      )
    )[0].next;

  const everything = (topic: string, each: number) =>
    eventually(
      () => landed(topic),
      (l) => [l.shared[orgS], l.a[orgA], l.b[orgB]].every((c) => c?.[0] === each),
      { timeoutMs: 60_000, what: `${each} rows of each organization in its own database` },
    );

  it("lands a batch spanning the shared database and two tenant databases on two servers in each organization's own", async () => {
    const topic = await newTopic('rr-span.v1', 1);
    const orgs = [orgS, orgA, orgB];
    await publish(
      topic,
      Array.from({ length: 30 }, (_, i) => record(orgs[i % 3], i)),
    );
    await startRunner(topic, 'rr-span');
    const l = await everything(topic, 10);
    expectOnly(l.shared, orgS, 10);
    expectOnly(l.a, orgA, 10);
    expectOnly(l.b, orgB, 10);
    expect(l.c).toEqual({});
    // Each tenant database keeps its own checkpoint of the partition, at the batch's end.
    for (const db of [tenantA, tenantB]) {
      const [{ next }] = await db.query<{ next: string }>(
        'SELECT next_offset::text AS next FROM projection_checkpoints WHERE consumer_group = $1',
        [`${settings.prefix}rr-span`],
      );
      expect(next).toBe('30');
    }
    expect(await sharedCheckpoint('rr-span', topic)).toBe('30');
  });

  it('neither loses nor duplicates when the process fails between the tenant transactions and the shared one', async () => {
    const topic = await newTopic('rr-crash.v1', 2);
    const orgs = [orgS, orgA, orgB];
    await publish(
      topic,
      Array.from({ length: 60 }, (_, i) => record(orgs[i % 3], i)),
    );
    const committedBeforeFailure: number[] = [];
    let failures = 2;
    const failInShared: Hook = async (_tx, database, records) => {
      if (database !== shared.database || records.length === 0 || failures === 0) return;
      failures -= 1;
      // The tenant databases' transactions of this batch are committed: seen from outside them.
      const [{ rows }] = await tenantA.query<{ rows: number }>(
        `SELECT count(*)::int AS rows FROM ${TABLE} WHERE src = $1`,
        [topic],
      );
      committedBeforeFailure.push(rows);
      throw new Error('the process died before the shared transaction committed');
    };
    const first = await startRunner(topic, 'rr-crash', failInShared);
    await eventually(
      async () => failures,
      (f) => f === 0,
      { timeoutMs: 60_000, what: 'two failed shared commits' },
    );
    await first.stop();
    // A restart: a new consumer, reading from the shared checkpoint again.
    await startRunner(topic, 'rr-crash');
    await publish(
      topic,
      Array.from({ length: 30 }, (_, i) => record(orgs[i % 3], 60 + i)),
    );
    const l = await everything(topic, 30);
    expect(committedBeforeFailure.some((rows) => rows > 0)).toBe(true);
    expectOnly(l.shared, orgS, 30);
    expectOnly(l.a, orgA, 30);
    expectOnly(l.b, orgB, 30);
  });

  it("commits each tenant database's part of a batch without waiting for another tenant database's", async () => {
    const topic = await newTopic('rr-apart.v1', 1);
    // The first tenant transaction to apply holds itself open until the other tenant database shows
    // its row, for at most 5 s: committed one database after another, it would wait in vain.
    let first: string | null = null;
    const seenWhileOpen: boolean[] = [];
    const waitForTheOther: Hook = async (_tx, database, records) => {
      if (database === shared.database || records.length === 0 || first !== null) return;
      first = database;
      const [other, otherOrg] = database === tenantA.database ? [tenantB, orgB] : [tenantA, orgA];
      const seen = async () =>
        (
          await other.query<{ rows: number }>(
            `SELECT count(*)::int AS rows FROM ${TABLE} WHERE src = $1 AND org_id = $2`,
            [topic, otherOrg],
          )
        )[0].rows > 0;
      const until = Date.now() + 5000;
      let shown = await seen();
      while (!shown && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        shown = await seen();
      }
      seenWhileOpen.push(shown);
    };
    await publish(topic, [record(orgA, 0), record(orgB, 1), record(orgS, 2)]);
    await startRunner(topic, 'rr-apart', waitForTheOther);
    await eventually(
      () => landed(topic),
      (l) => [l.shared[orgS], l.a[orgA], l.b[orgB]].every((c) => c?.[0] === 1),
      { timeoutMs: 30_000, what: 'the batch in all three databases' },
    );
    expect(seenWhileOpen).toEqual([true]);
  });

  it('keeps every row exactly once while a second runner joins and the partitions move', async () => {
    const topic = await newTopic('rr-rebalance.v1', 4);
    const orgs = [orgS, orgA, orgB];
    // Slow batches: the rebalance lands while transactions are open in every database.
    const slow: Hook = () => new Promise((resolve) => setTimeout(resolve, 100));
    await publish(
      topic,
      Array.from({ length: 150 }, (_, i) => record(orgs[i % 3], i)),
    );
    await startRunner(topic, 'rr-rebalance', slow);
    await publish(
      topic,
      Array.from({ length: 150 }, (_, i) => record(orgs[i % 3], 150 + i)),
    );
    await startRunner(topic, 'rr-rebalance', slow);
    await publish(
      topic,
      Array.from({ length: 150 }, (_, i) => record(orgs[i % 3], 300 + i)),
    );
    const l = await everything(topic, 150);
    expectOnly(l.shared, orgS, 150);
    expectOnly(l.a, orgA, 150);
    expectOnly(l.b, orgB, 150);
  });

  // Each database's transaction is shared by the partitions in flight: the tenant databases', and
  // the shared database's (a slow transaction there makes the other partitions' batches wait for it).
  const sharing = [
    {
      where: 'tenant',
      counter: () => metrics.tenantBatchesCommittedTogether,
      slowIn: (db: string) => db !== shared.database,
    },
    {
      where: 'shared',
      counter: () => metrics.sharedBatchesCommittedTogether,
      slowIn: (db: string) => db === shared.database,
    },
  ];

  it.each(sharing)(
    "commits the partitions in flight together in the $where database, every row once, every partition's checkpoint at its end",
    async ({ where, counter, slowIn }) => {
      const group = `rr-together-${where}`;
      const topic = await newTopic(`${group}.v1`, 4);
      const orgs = [orgS, orgA, orgB];
      const partitionsPerApply: number[] = [];
      const slow: Hook = async (_tx, database, records) => {
        if (!slowIn(database)) return;
        partitionsPerApply.push(new Set(records.map((r) => r.partition)).size);
        await new Promise((resolve) => setTimeout(resolve, 100));
      };
      const together = async () => (await counter().get()).values.find((v) => v.labels.consumer === group)?.value ?? 0;
      await startRunner(topic, group, slow);
      for (let round = 0; round < 6; round++) {
        await publish(
          topic,
          Array.from({ length: 60 }, (_, i) => record(orgs[i % 3], round * 60 + i)),
        );
      }
      const l = await everything(topic, 120);
      expectOnly(l.shared, orgS, 120);
      expectOnly(l.a, orgA, 120);
      expectOnly(l.b, orgB, 120);
      expect(Math.max(...partitionsPerApply)).toBeGreaterThan(1);
      expect(await together()).toBeGreaterThan(1);
      // Every database holds each partition's checkpoint at that partition's end.
      const ends = Object.fromEntries(
        (await admin.fetchTopicOffsets(settings.prefix + topic)).map((p) => [String(p.partition), p.high]),
      );
      for (const db of [shared, tenantA, tenantB]) {
        const rows = await db.query<{ partition: number; next: string }>(
          'SELECT partition, next_offset::text AS next FROM projection_checkpoints WHERE consumer_group = $1',
          [settings.prefix + group],
        );
        expect(Object.fromEntries(rows.map((r) => [String(r.partition), r.next]))).toEqual(ends);
      }
    },
  );

  it.each(sharing)(
    'dead-letters a refused record of the $where database once, and the batches that shared its transaction all land',
    async ({ where, slowIn }) => {
      const group = `rr-together-poison-${where}`;
      const topic = await newTopic(`${group}.v1`, 4);
      await createTopic(admin, settings.prefix + deadLetterTopic(topic), 1);
      const orgs = [orgS, orgA, orgB];
      const POISON = 1_000_000;
      const partitionsPerApply: number[] = [];
      const refusing: Hook = async (tx, database, records) => {
        if (!slowIn(database)) return;
        partitionsPerApply.push(new Set(records.map((r) => r.partition)).size);
        await new Promise((resolve) => setTimeout(resolve, 50));
        // A refusal for the record's content (SQLSTATE 22012): the same every time it is applied.
        if (records.some((r) => r.payload.n === POISON)) await tx.query('SELECT 1 / 0');
      };
      const refusedBefore = await deadLetterCount(group);
      await startRunner(topic, group, refusing);
      for (let round = 0; round < 4; round++) {
        await publish(
          topic,
          Array.from({ length: 60 }, (_, i) => record(orgs[i % 3], round * 60 + i)),
        );
        if (round === 1) await publish(topic, [record(where === 'shared' ? orgS : orgA, POISON)]);
      }
      const l = await everything(topic, 80);
      expectOnly(l.shared, orgS, 80);
      expectOnly(l.a, orgA, 80);
      expectOnly(l.b, orgB, 80);
      expect(Math.max(...partitionsPerApply)).toBeGreaterThan(1);
      await eventually(
        () => deadLetterCount(group),
        (n) => n - refusedBefore === 1,
        { what: 'the refused record dead-lettered once' },
      );
    },
  );

  async function deadLetterCount(projection: string): Promise<number> {
    const { values } = await metrics.deadLetters.get();
    return values
      .filter((v) => v.labels.projection === projection && v.labels.reason === 'refused')
      .reduce((sum, v) => sum + v.value, 0);
  }

  it('holds an organization whose database is not migrated (nothing written, position before it) until its route is active', async () => {
    const topic = await newTopic('rr-hold.v1', 1);
    const orgH = randomUUID();
    await plane.publishRoute(route(orgH, tenantC, 'provisioning'));
    await publish(topic, [record(orgS, 0), record(orgH, 1), record(orgS, 2), record(orgA, 3)]);
    await startRunner(topic, 'rr-hold');
    await eventually(
      () => landed(topic),
      (l) => l.shared[orgS]?.[0] === 1,
      { what: 'the record before the held one' },
    );
    // Several hold periods: still nothing of the held organization or after it, anywhere.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const held = await landed(topic);
    expect(held).toEqual({ shared: { [orgS]: [1, 1] }, a: {}, b: {}, c: {} });
    expect(await sharedCheckpoint('rr-hold', topic)).toBe('1');

    await plane.publishRoute(route(orgH, tenantC, 'active'));
    const l = await eventually(
      () => landed(topic),
      (x) => x.c[orgH]?.[0] === 1 && x.a[orgA]?.[0] === 1 && x.shared[orgS]?.[0] === 2,
      { what: 'the held records once the route is active' },
    );
    expect(l).toEqual({ shared: { [orgS]: [2, 2] }, a: { [orgA]: [1, 1] }, b: {}, c: { [orgH]: [1, 1] } });
    expect(await sharedCheckpoint('rr-hold', topic)).toBe('4');
  });

  it("skips a deprovisioned organization's records and records sealed with a destroyed key, and counts them", async () => {
    const topic = await newTopic('rr-erased.v1', 1);
    const orgD = randomUUID();
    // Its own (dropped) database: a deprovisioned route closes the pool of the database it names.
    await plane.publishRoute(
      route(orgD, { server: tenantB.server, database: `${tenantB.database}_gone` }, 'deprovisioned'),
    );
    const erasedBefore = await erasedCount(topic);
    await publish(topic, [
      record(orgD, 0),
      record(orgS, 1),
      record(orgA, 2, `live:${JSON.stringify({ n: 2 })}`),
      record(orgA, 3, 'gone:ciphertext'),
      record(orgD, 4),
      record(orgB, 5),
    ]);
    await startRunner(topic, 'rr-erased', undefined, new PrefixOpener());
    await eventually(
      () => sharedCheckpoint('rr-erased', topic),
      (next) => next === '6',
      { what: 'the checkpoint past every record' },
    );
    expect(await landed(topic)).toEqual({
      shared: { [orgS]: [1, 1] },
      a: { [orgA]: [1, 1] },
      b: { [orgB]: [1, 1] },
      c: {},
    });
    expect((await erasedCount(topic)) - erasedBefore).toBe(3);
  });

  async function erasedCount(topic: string): Promise<number> {
    const { values } = await metrics.erasedRecordsSkipped.get();
    return values.find((v) => v.labels.topic === settings.prefix + topic)?.value ?? 0;
  }
});
