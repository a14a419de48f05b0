import { randomUUID } from 'node:crypto';
import { bootstrapDatabase, databaseConfigFromEnv, dropTestDatabase, ROLE_NAMES } from '@agentwatch/db';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { PROJECTIONS, rebuildProjections } from '@agentwatch/projections';
import { EventStream, eventStream, eventually, suiteEnv } from '@agentwatch/testing';
import {
  CELL_SERVER_ADMIN_URL,
  RoutedDataPlane,
  route,
  sharedTestDatabase,
  TestDatabase,
  tenantTestDatabase,
} from '../../../libs/cells/src/testing/routed-databases';
import { projectorConfigFromEnv } from './config';
import { startProjector } from './main';

const TABLES = ['events', 'sessions', 'agents', 'event_hourly_counts'];
// The hourly counters mean their sums over slots (which connection counted is not part of the model).
const ROWS: Record<string, string> = {
  event_hourly_counts: `SELECT org_id, hour, action_type, decision, tool_name, sum(count) AS count
                          FROM event_hourly_counts GROUP BY 1, 2, 3, 4, 5 HAVING sum(count) <> 0`,
};

describe('the projector and replay across the shared database and tenant databases on two servers', () => {
  // A shared database of its own: a rebuild swaps whole tables, which suites running beside it must not see.
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
  url.pathname = `/agentwatch_test_${process.env.AGENTWATCH_TEST_RUN ?? Date.now().toString(36)}_rreplay`;
  const env = suiteEnv('routed-replay', { DATABASE_URL: url.toString(), PROJECTOR_PORT: '0', HOST: '127.0.0.1' });
  const shared = sharedTestDatabase(env);
  let tenantA: TestDatabase;
  let tenantB: TestDatabase;
  let plane: RoutedDataPlane;
  let stream: EventStream;
  let projector: Awaited<ReturnType<typeof startProjector>> | undefined;
  const orgS = randomUUID();
  const orgA = randomUUID();
  const orgB = randomUUID();

  beforeAll(async () => {
    await bootstrapDatabase(databaseConfigFromEnv(env));
    tenantA = await tenantTestDatabase(env, shared.config.adminUrl, 'ta');
    tenantB = await tenantTestDatabase(env, CELL_SERVER_ADMIN_URL, 'tb');
    // A self-service organization's row, as POST /v1/tenant leaves it; a tenant database gets its
    // organization's row from the projector (the read models' foreign keys need it there).
    await shared.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [orgS, 'self-service']);
    plane = new RoutedDataPlane(
      createKafka(kafkaSettingsFromEnv('routed-replay', env)),
      kafkaSettingsFromEnv('routed-replay', env),
      null,
    );
    await plane.start();
    await plane.publishRoute(route(orgA, tenantA, 'active'));
    await plane.publishRoute(route(orgB, tenantB, 'active'));
    stream = await eventStream(env);
    projector = await startProjector(projectorConfigFromEnv(env));
  });

  afterAll(async () => {
    await projector?.app.close();
    await stream?.close();
    await plane?.stop();
    await Promise.all([tenantA?.drop(), tenantB?.drop()]);
    await dropTestDatabase(shared.config.adminUrl, shared.database);
  });

  const databases = () => ({ shared, a: tenantA, b: tenantB });

  /** Per database, per table: its rows' count and digest, and which organizations they belong to. */
  async function fingerprint() {
    const result: Record<string, Record<string, unknown>> = {};
    for (const [name, db] of Object.entries(databases())) {
      result[name] = {};
      for (const table of TABLES) {
        const [row] = await db.query(
          `SELECT count(*)::int AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS hash,
                  array_agg(DISTINCT t.org_id::text) AS orgs
             FROM (${ROWS[table] ?? `SELECT * FROM ${table}`}) t`,
        );
        result[name][table] = row;
      }
    }
    return result;
  }

  const eventCounts = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(databases()).map(async ([name, db]) => {
          const rows = await db.query<{ org_id: string; n: number }>(
            'SELECT org_id, count(*)::int AS n FROM events GROUP BY org_id',
          );
          return [name, Object.fromEntries(rows.map((r) => [r.org_id, r.n]))] as const;
        }),
      ),
    );

  const ownerConnectionsOpened = async () => {
    const opened: Date[] = [];
    for (const db of [tenantA, tenantB]) {
      const rows = await db.query<{ backend_start: Date }>(
        'SELECT backend_start FROM pg_stat_activity WHERE datname = $1 AND usename = $2',
        [db.database, ROLE_NAMES.owner],
      );
      opened.push(...rows.map((r) => r.backend_start));
    }
    return opened;
  };

  const landed = (each: number, what: string) =>
    eventually(eventCounts, (c) => c.shared[orgS] === each && c.a[orgA] === each && c.b[orgB] === each, {
      timeoutMs: 90_000,
      intervalMs: 500,
      what,
    });

  it('projects each organization into its own database, and a replay rebuilds the same rows in each', async () => {
    for (const org of [orgS, orgA, orgB]) await stream.produce(org, 400, 100);
    expect(await landed(400, 'every event projected into its organization’s database')).toEqual({
      shared: { [orgS]: 400 },
      a: { [orgA]: 400 },
      b: { [orgB]: 400 },
    });
    const live = await fingerprint();
    expect((live.a.sessions as { orgs: string[] }).orgs).toEqual([orgA]);
    expect((live.b.sessions as { orgs: string[] }).orgs).toEqual([orgB]);
    expect((live.shared.events as { orgs: string[] }).orgs).toEqual([orgS]);

    const tablesNow = () =>
      Promise.all(
        Object.values(databases()).map(async (db) => (await db.query(`SELECT 'events'::regclass::oid AS oid`))[0].oid),
      );
    const before = await tablesNow();
    // Each owner connection to a tenant database open while the rebuild consumed, by when it was opened.
    const ownerConnections: Promise<Date[]>[] = [];
    let consumingSince: Date | undefined;
    const done = await rebuildProjections(projectorConfigFromEnv(env), PROJECTIONS, () => {
      consumingSince ??= new Date();
      ownerConnections.push(ownerConnectionsOpened());
    });
    // The rebuild holds them for its schema steps only, not while its consumers run beside the live
    // apps (each would count against its server's max_connections). A sample answered late may see
    // those opened for the swap, after the consumers stopped; none may date from before they started.
    const seen = (await Promise.all(ownerConnections)).flat();
    expect(ownerConnections.length).toBeGreaterThan(0);
    expect(seen.filter((opened) => consumingSince && opened < consumingSince)).toEqual([]);
    // Every database's tables were rebuilt and swapped in, not left as they were.
    const after = await tablesNow();
    for (const [i, oid] of after.entries()) expect(oid).not.toEqual(before[i]);
    expect(done.applied).toBeGreaterThanOrEqual(1200);
    expect(await fingerprint()).toEqual(live);
    for (const db of Object.values(databases())) {
      expect(await db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rebuild_%'`)).toEqual([]);
    }

    // The live projector carries on into the swapped-in tables of every database, each record once.
    for (const org of [orgS, orgA, orgB]) await stream.produce(org, 50, 50);
    expect(await landed(450, 'the events after the replay')).toEqual({
      shared: { [orgS]: 450 },
      a: { [orgA]: 450 },
      b: { [orgB]: 450 },
    });
  });
});
