import { randomUUID } from 'node:crypto';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { createOrganization, eventStream, eventually, suiteEnv } from '@agentwatch/testing';
import {
  CELL_SERVER_ADMIN_URL,
  RoutedDataPlane,
  route,
  sharedTestDatabase,
  TestDatabase,
  tenantTestDatabase,
} from '../../../libs/cells/src/testing/routed-databases';
import { scoringWorkerConfigFromEnv } from './config';
import { startScoringWorker } from './main';

const EVENTS = 600;
/** A policy version only the tenant database holds: scores carrying it were scored from there. */
const TENANT_POLICY_VERSION = 7;

describe("scoring worker: a provisioned tenant's scores, graph and policies in its own database", () => {
  const env = suiteEnv('routed-scoring', { SCORING_WORKER_PORT: '0', HOST: '127.0.0.1', LLM_URL: '' });
  const shared = sharedTestDatabase(env);
  let tenant: TestDatabase; // on the second cell's server
  let plane: RoutedDataPlane;
  let orgS: string;
  const orgT = randomUUID();

  beforeAll(async () => {
    tenant = await tenantTestDatabase(env, CELL_SERVER_ADMIN_URL, 'rs_t');
    await tenant.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [orgT, 'tenant']);
    await tenant.query(
      `INSERT INTO scoring_policy_versions (org_id, version, policies, changed_at) VALUES ($1, $2, '{}', '2020-01-01')`,
      [orgT, TENANT_POLICY_VERSION],
    );
    const settings = kafkaSettingsFromEnv('routed-scoring', env);
    plane = new RoutedDataPlane(createKafka(settings), settings, shared.config.rolePassword);
    await plane.start();
    await plane.publishRoute(route(orgT, tenant, 'active'));
    orgS = (await createOrganization('routed scoring org', env)).orgId;
    // Reads of a key file: every event is a node of the session graph, kept where its scores are.
    const stream = await eventStream(env, { path: '/home/dev/.ssh/id_rsa' });
    for (let round = 0; round < 3; round++) {
      for (const org of [orgS, orgT]) await stream.produce(org, EVENTS / 3, EVENTS / 3);
    }
    await stream.close();
  });

  afterAll(async () => {
    await plane?.stop();
    await tenant?.drop();
  });

  const scores = (db: TestDatabase) =>
    db.query<{ org_id: string; n: number; distinct: number; versions: number[] }>(
      `SELECT org_id, count(*)::int AS n, count(DISTINCT event_id)::int AS distinct,
              array_agg(DISTINCT policy_version) AS versions
         FROM event_scores WHERE org_id = ANY($1::uuid[]) GROUP BY org_id ORDER BY org_id`,
      [[orgS, orgT]],
    );

  it("scores each organization's events in its own database, under the policy that database holds", async () => {
    const worker = await startScoringWorker(scoringWorkerConfigFromEnv(env));
    try {
      await eventually(
        async () => [await scores(shared), await scores(tenant)],
        ([s, t]) => s[0]?.n === EVENTS && t[0]?.n === EVENTS,
        { timeoutMs: 90_000, what: 'every event scored' },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      const [inShared, inTenant] = [await scores(shared), await scores(tenant)];
      expect(inTenant).toEqual([{ org_id: orgT, n: EVENTS, distinct: EVENTS, versions: [TENANT_POLICY_VERSION] }]);
      expect(inShared).toHaveLength(1);
      expect(inShared[0]).toMatchObject({ org_id: orgS, n: EVENTS, distinct: EVENTS });
      expect(inShared[0].versions).not.toContain(TENANT_POLICY_VERSION);
      // The session graph follows too: the tenant's nodes in its database, none in the shared one.
      const nodes = (db: TestDatabase) =>
        db.query<{ org_id: string; n: number }>(
          `SELECT org_id, count(*)::int AS n FROM scoring_graph_nodes WHERE org_id = ANY($1::uuid[])
            GROUP BY org_id ORDER BY org_id`,
          [[orgS, orgT]],
        );
      expect(await nodes(tenant)).toEqual([{ org_id: orgT, n: EVENTS }]);
      expect(await nodes(shared)).toEqual([{ org_id: orgS, n: EVENTS }]);
    } finally {
      await worker.app.close();
    }
  });
});
