import { randomUUID } from 'node:crypto';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { createOrganization, eventStream, eventually, spawnApp, suiteEnv } from '@agentwatch/testing';
import {
  CELL_SERVER_ADMIN_URL,
  RoutedDataPlane,
  route,
  sharedTestDatabase,
  TestDatabase,
  tenantTestDatabase,
} from '../../../libs/cells/src/testing/routed-databases';

const EVENTS = 6_000;

describe('projector: exactly once across databases when killed between a tenant transaction and the shared one', () => {
  // A short session timeout: the killed member must leave the group quickly for the restart to take over.
  const env = suiteEnv('routed-crash', { PROJECTOR_PORT: '0', LOG_LEVEL: 'warn', KAFKA_SESSION_TIMEOUT_MS: '6000' });
  const shared = sharedTestDatabase(env);
  let tenantA: TestDatabase; // on the test run's server
  let tenantB: TestDatabase; // on the second cell's
  let plane: RoutedDataPlane;
  let orgS: string;
  const orgA = randomUUID();
  const orgB = randomUUID();

  beforeAll(async () => {
    tenantA = await tenantTestDatabase(env, shared.config.adminUrl, 'rc_a');
    tenantB = await tenantTestDatabase(env, CELL_SERVER_ADMIN_URL, 'rc_b');
    const settings = kafkaSettingsFromEnv('routed-crash', env);
    plane = new RoutedDataPlane(createKafka(settings), settings, shared.config.rolePassword);
    await plane.start();
    await plane.publishRoute(route(orgA, tenantA, 'active'));
    await plane.publishRoute(route(orgB, tenantB, 'active'));
    orgS = (await createOrganization('routed crash org', env)).orgId;
    const stream = await eventStream(env);
    // Interleaved: every batch spans the three databases.
    for (let round = 0; round < 10; round++) {
      for (const org of [orgS, orgA, orgB]) await stream.produce(org, EVENTS / 10, EVENTS / 10);
    }
    await stream.close();
  });

  afterAll(async () => {
    await plane?.stop();
    await Promise.all([tenantA?.drop(), tenantB?.drop()]);
  });

  /** Per database, for its organization: events and distinct event ids. */
  const counts = async () =>
    Promise.all(
      (
        [
          [shared, orgS],
          [tenantA, orgA],
          [tenantB, orgB],
        ] as const
      ).map(async ([db, org]) => {
        const [row] = await db.query<{ total: number; distinct: number; others: number }>(
          `SELECT count(*) FILTER (WHERE org_id = $1)::int AS total, count(DISTINCT id) FILTER (WHERE org_id = $1)::int AS distinct,
                  count(*) FILTER (WHERE org_id = ANY($2::uuid[]))::int AS others
             FROM events`,
          [org, [orgS, orgA, orgB].filter((o) => o !== org)],
        );
        return row;
      }),
    );

  it('dies by SIGKILL right after the tenant transactions; the restart lands every event once, each in its own database', async () => {
    const crashing = spawnApp('projector', { ...env, AGENTWATCH_FAILPOINT: 'projector.between-tenant-and-shared' });
    expect(await crashing.exited).toBe('SIGKILL');
    // The tenant databases committed the batch the shared database never saw.
    const afterCrash = await counts();
    expect(afterCrash[1].total + afterCrash[2].total).toBeGreaterThan(0);
    expect(afterCrash[0].total).toBeLessThan(EVENTS);

    const restarted = spawnApp('projector', env);
    try {
      await eventually(counts, (c) => c.every((db) => db.total >= EVENTS), {
        timeoutMs: 90_000,
        what: 'every event projected',
      });
      // Give a wrongly re-applied batch the chance to show up before judging.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await counts()).toEqual([
        { total: EVENTS, distinct: EVENTS, others: 0 },
        { total: EVENTS, distinct: EVENTS, others: 0 },
        { total: EVENTS, distinct: EVENTS, others: 0 },
      ]);
    } finally {
      await restarted.kill('SIGTERM');
    }
  });
});
