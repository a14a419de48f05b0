import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { RouteChangedV1, TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv, PRODUCT_MIGRATIONS } from '@agentwatch/db';
import { call, eventually } from '@agentwatch/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  CELL_2_URL,
  controlPlaneEnv,
  dropTenantDatabase,
  isolatedDatabase,
  Operators,
  queryDatabase,
  RunningControlPlane,
  startControlPlaneApp,
  startOperators,
  tenantDatabaseExists,
  uniqueSlug,
} from '../../libs/testing/src/control-plane-stack';
import { readTopicRecords } from '../../libs/testing/src/topic-records';

const cli = path.join(__dirname, '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const NEWEST = PRODUCT_MIGRATIONS.map((m) => m.name.match(/\d{13}$/)?.[0])
  .sort()
  .at(-1) as string;
const PREVIOUS = PRODUCT_MIGRATIONS.map((m) => m.name.match(/\d{13}$/)?.[0])
  .sort()
  .at(-2) as string;

// A tenant placed in the second region lives on the second PostgreSQL server; its route travels on
// tenancy.routes.v1; deprovisioning retires the route before dropping the database, destroys the data
// key and leaves nothing of the tenant's identity in the shared database; the slug, provisioned again,
// is a new organization; `migrate --all-tenants` upgrades tenant databases and republishes routes.
describe('cells: a tenant on the second server, from placement to erasure', () => {
  let operators: Operators;
  let cp: RunningControlPlane;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const slug = uniqueSlug('cell');
  const database = `tenant_${slug}`;

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cpcells');
    cp = await startControlPlaneApp(controlPlaneEnv('tenancy-cells', operators, db.env));
  });

  afterAll(async () => {
    await cp?.stop();
    await operators?.idp.stop();
    if (cp) await dropTenantDatabase(cp.env, database);
    await db?.drop();
  });

  const detail = async (s = slug) => (await call(`${cp.url}/v1/tenants/${s}`, { token: operators.viewer })).body;
  const post = (p: string, token: string, body?: unknown) => call(`${cp.url}${p}`, { method: 'POST', token, body });
  const shared = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    queryDatabase<T>(cp.env, null, sql, params);

  async function requestAndApprove(s: string, region: string) {
    const body = {
      slug: s,
      name: 'Initech',
      owner_email: 'it@initech.test',
      region,
      plan_tier: 'team',
      isolation: 'shared',
    };
    expect((await post('/v1/tenants', operators.alice, body)).status).toBe(202);
    await eventually(detail.bind(null, s), (d) => d.state === 'pending-approval', { what: 'pending-approval' });
    expect((await post(`/v1/tenants/${s}/approve`, operators.bob)).status).toBe(200);
  }

  const dbReady = (s: string) =>
    eventually(
      () => detail(s),
      (d) => d.state === 'awaiting-first-checkin',
      { what: `${s} routed and awaiting its daemon`, timeoutMs: 60_000 },
    );

  /** The tenant's data key as the API role would read it: through the function, never the table. */
  async function asApp<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: databaseConfigFromEnv(cp.env).appUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }
  const keyOf = (orgId: string) =>
    asApp(async (c) => (await c.query('SELECT tenant_data_key($1) AS key', [orgId])).rows[0].key as Buffer | null);

  const routesOf = async (orgId: string, count: number) =>
    (
      await readTopicRecords(
        cp.env,
        TOPICS.tenancyRoutes.name,
        (records) => records.filter((r) => r.key === orgId).length >= count,
      )
    )
      .filter((r) => r.key === orgId)
      .map((r) => JSON.parse(r.value) as RouteChangedV1);

  function runCli(args: string[]) {
    const env = { ...cp.env, CONTROL_CELLS: cp.env.CONTROL_CELLS as string };
    return promisify(execFile)(process.execPath, [cli, ...args], { env });
  }

  let orgId: string;

  it('creates the tenant database on the cell of its region, with the product schema and roles', async () => {
    await requestAndApprove(slug, 'eu-2');
    const ready = await dbReady(slug);
    orgId = ready.organization_id as string;
    expect(ready).toMatchObject({ cell: 'cell-2', database_name: database, region: 'eu-2' });
    expect(ready.placement).toMatchObject({ cell: 'cell-2', schema_version: NEWEST });

    expect(await tenantDatabaseExists(cp.env, database, 'cell-2')).toBe(true);
    expect(await tenantDatabaseExists(cp.env, database, 'local-1')).toBe(false);
    const tables = await queryDatabase<{ name: string }>(
      cp.env,
      database,
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`,
      [],
      'cell-2',
    );
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'sessions', 'event_scores']));
    expect(tables.map((t) => t.name).filter((t) => t.startsWith('tenancy_'))).toEqual([]);
    const roles = await queryDatabase<{ rolname: string }>(
      cp.env,
      database,
      `SELECT rolname FROM pg_roles WHERE rolname LIKE 'agentwatch_%' ORDER BY 1`,
      [],
      'cell-2',
    );
    expect(roles.map((r) => r.rolname)).toEqual(
      expect.arrayContaining(['agentwatch_app', 'agentwatch_owner', 'agentwatch_projector']),
    );

    const [route] = await shared('SELECT * FROM tenancy_routes WHERE org_id = $1', [orgId]);
    expect(route).toMatchObject({ slug, state: 'active', cell: 'cell-2', region: 'eu-2', schema_version: NEWEST });
    expect(route.server).toBe(new URL(CELL_2_URL).host);
  });

  it('keeps the data key from the data plane roles but for tenant_data_key()', async () => {
    const key = await keyOf(orgId);
    expect(key?.length).toBe(32);
    await expect(asApp((c) => c.query('SELECT key FROM tenancy_data_keys'))).rejects.toThrow(/permission denied/);
  });

  it('publishes the route: provisioning, then active with its schema version', async () => {
    const routes = await routesOf(orgId, 2);
    expect(routes.map((r) => [r.state, r.schema_version])).toEqual([
      ['provisioning', null],
      ['active', NEWEST],
    ]);
    expect(routes[1]).toMatchObject({
      org_id: orgId,
      slug,
      cell: 'cell-2',
      region: 'eu-2',
      server: new URL(CELL_2_URL).host,
      database,
    });
  });

  it('migrate --all-tenants brings a database behind up to date and republishes its route, once', async () => {
    // The tenant database one migration behind, its route written by the build before.
    const tenant = new URL(CELL_2_URL);
    tenant.pathname = `/${database}`;
    const behind = await new DataSource({
      type: 'postgres',
      url: tenant.toString(),
      migrations: PRODUCT_MIGRATIONS,
    }).initialize();
    await behind.undoLastMigration();
    await behind.destroy();
    await shared('UPDATE tenancy_routes SET schema_version = $2 WHERE org_id = $1', [orgId, PREVIOUS]);

    const first = await runCli(['migrate', '--all-tenants']);
    expect(first.stdout).toContain(`${slug} (cell-2/${database}): schema ${PREVIOUS} → ${NEWEST}, route published`);
    const [route] = await shared('SELECT schema_version FROM tenancy_routes WHERE org_id = $1', [orgId]);
    expect(route.schema_version).toBe(NEWEST);
    const redrives = await queryDatabase(
      cp.env,
      database,
      `SELECT to_regclass('public.dead_letter_redrives') IS NOT NULL AS present`,
      [],
      'cell-2',
    );
    expect(redrives[0].present).toBe(true);
    expect((await routesOf(orgId, 3)).map((r) => [r.state, r.schema_version])).toEqual([
      ['provisioning', null],
      ['active', NEWEST],
      ['active', NEWEST],
    ]);

    const again = await runCli(['migrate', '--all-tenants']);
    expect(again.stdout).toContain(`${slug} (cell-2/${database}): schema ${NEWEST} → ${NEWEST}, route up to date`);
    const pending = await shared<{ n: number }>(
      `SELECT count(*)::int AS n FROM tenancy_outbox WHERE org_id = $1 AND topic = $2`,
      [orgId, TOPICS.tenancyRoutes.name],
    );
    expect(pending[0].n).toBe(3);
  });

  it('deprovisioning retires the route, drops the database, destroys the key and erases the identity', async () => {
    // What the tenant's credentials left in the shared database, as the cloud API and projector write them.
    const minted = await post(`/v1/tenants/${slug}/tokens`, operators.alice);
    expect(minted.status).toBe(201);
    await shared(
      `INSERT INTO organizations (id, name) VALUES ($1, 'Initech');
       INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix) VALUES (gen_random_uuid(), $1, 'tenancy', md5($1::text) || md5($1::text), 'aw_x');
       INSERT INTO memberships (subject, org_id) VALUES ('peter@initech.test', $1);
       INSERT INTO machines (org_id, id, token_hash, token_prefix) VALUES ($1, 'm1', md5($1::text || 'm'), 'aw_m');
       INSERT INTO api_keys (id, org_id, name, key_hash, prefix) VALUES (gen_random_uuid(), $1, 'k', md5($1::text || 'k'), 'aw_k');
       INSERT INTO ingest_rate_limits (key, points) VALUES ('ingest:' || $1::text || ':/v1/events/ingest', 1);
       INSERT INTO tenancy_checkins (org_id, checked_in_at) VALUES ($1, now());`.replaceAll('$1', `'${orgId}'`),
    );

    const justification = { justification: 'customer contract ended on 2026-11-01' };
    expect((await post(`/v1/tenants/${slug}/deprovision`, operators.alice, justification)).status).toBe(202);
    expect((await post(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(200);
    await eventually(detail, (d) => d.state === 'deprovisioned', { what: 'deprovisioned', timeoutMs: 60_000 });

    expect(await tenantDatabaseExists(cp.env, database, 'cell-2')).toBe(false);
    expect(await keyOf(orgId)).toBeNull();
    expect(await shared('SELECT 1 FROM tenancy_data_keys WHERE org_id = $1', [orgId])).toEqual([]);

    const [route] = await shared('SELECT state, schema_version FROM tenancy_routes WHERE org_id = $1', [orgId]);
    expect(route).toEqual({ state: 'deprovisioned', schema_version: null });
    const routes = await routesOf(orgId, 4);
    expect(routes.map((r) => [r.state, r.schema_version]).at(-1)).toEqual(['deprovisioned', null]);

    // The control plane's record of the flow (journal, flows, the route's tombstone and the outbox's
    // relayed copies) names the organization; nothing else in the shared database does.
    const record = ['tenancy_flows', 'tenancy_routes', 'tenancy_outbox'];
    const tables = await shared<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'org_id' AND table_name <> ALL($1) ORDER BY 1`,
      [record],
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['deploy_tokens', 'memberships', 'machines', 'api_keys', 'events', 'tenancy_data_keys']),
    );
    const left: Record<string, number> = {};
    for (const { table_name } of tables) {
      const [{ n }] = await shared<{ n: number }>(`SELECT count(*)::int AS n FROM ${table_name} WHERE org_id = $1`, [
        orgId,
      ]);
      if (n > 0) left[table_name] = n;
    }
    expect(left).toEqual({});
    expect(await shared('SELECT 1 FROM organizations WHERE id = $1', [orgId])).toEqual([]);
    expect(await shared('SELECT 1 FROM ingest_rate_limits WHERE strpos(key, $1) > 0', [orgId])).toEqual([]);

    const journal = await shared<{ type: string; data: { erased?: Record<string, number> } }>(
      `SELECT type, data FROM tenancy_journal WHERE slug = $1 AND flow_kind = 'offboard' ORDER BY position`,
      [slug],
    );
    expect(journal.map((e) => e.type)).toEqual([
      'DeprovisionRequested',
      'FlowApproved',
      'TokensRevoked',
      'RouteRemoved',
      'IdentityErased',
      'DatabaseDropped',
    ]);
    expect(journal[4].data.erased).toMatchObject({
      organizations: 1,
      deploy_tokens: 1,
      memberships: 1,
      machines: 1,
      api_keys: 1,
      ingest_rate_limits: 1,
      tenancy_tokens: 1,
      tenancy_checkins: 1,
    });
  });

  it('provisions the slug again as a new organization with a key of its own', async () => {
    await requestAndApprove(slug, 'eu-2');
    const again = await dbReady(slug);
    expect(again.organization_id).not.toBe(orgId);
    const key = await keyOf(again.organization_id as string);
    expect(key?.length).toBe(32);
    const [route] = await shared('SELECT state FROM tenancy_routes WHERE org_id = $1', [orgId]);
    expect(route.state).toBe('deprovisioned');
    const tokens = await queryDatabase(cp.env, database, 'SELECT count(*)::int AS n FROM deploy_tokens', [], 'cell-2');
    expect(tokens[0].n).toBe(0);
  });

  it('fails placement with no_placeable_cell when no cell serves the region', async () => {
    const nowhere = uniqueSlug('nowhere');
    await requestAndApprove(nowhere, 'ap-9');
    const failed = await eventually(
      () => detail(nowhere),
      (d) => d.last_error === 'no_placeable_cell',
      { what: 'no_placeable_cell' },
    );
    expect(failed).toMatchObject({ failed_step: 'place', cell: null });
    expect(await shared('SELECT 1 FROM tenancy_routes WHERE slug = $1', [nowhere])).toEqual([]);
  });
});
