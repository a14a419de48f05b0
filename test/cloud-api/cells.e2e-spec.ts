import { randomBytes, randomUUID } from 'node:crypto';
import { TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { call, createOrganization, suiteEnv, TestOrganization } from '@agentwatch/testing';
import { cloudApiConfigFromEnv } from '../../apps/cloud-api/src/config';
import { startCloudApi } from '../../apps/cloud-api/src/main';
import {
  createTenantDatabase,
  publishRoutes,
  RawRecord,
  readRawRecords,
  route,
  sql,
  TenantDatabase,
} from '../tenant-fixture';

type Row = Record<string, unknown>;

describe('cloud API: an organization is read in the database its route names', () => {
  const env = suiteEnv('e2e-cells-cloud', { CLOUD_API_PORT: '0', HOST: '127.0.0.1' });
  let api: Awaited<ReturnType<typeof startCloudApi>>;
  let url: string;
  let tenant: TestOrganization;
  let other: TestOrganization;
  let pending: TestOrganization;
  let behind: TestOrganization;
  let db: TenantDatabase;
  const session = randomUUID();
  const event = randomUUID();
  const agent = `cells-agent-${session.slice(0, 8)}`;

  const get = (path: string, org: TestOrganization) => call(`${url}${path}`, { token: org.token });
  const post = (path: string, body: unknown, org: TestOrganization) =>
    call(`${url}${path}`, { method: 'POST', token: org.token, body });

  beforeAll(async () => {
    api = await startCloudApi(cloudApiConfigFromEnv(env));
    url = api.url.replace('[::1]', '127.0.0.1');
    [tenant, other, pending, behind] = await Promise.all(
      ['cells tenant', 'cells other', 'cells pending', 'cells behind'].map((name) => createOrganization(name, env)),
    );
    db = await createTenantDatabase(env);
    // The data key the control plane gives a tenant at placement.
    await sql(databaseConfigFromEnv(env).adminUrl, 'INSERT INTO tenancy_data_keys (org_id, key) VALUES ($1, $2)', [
      tenant.orgId,
      randomBytes(32),
    ]);
    // Rows only the tenant database holds: what the projector writes there.
    const at = new Date(Date.now() - 3600_000).toISOString();
    const values = [tenant.orgId, session, at, event, agent];
    await sql(
      db.adminUrl,
      `INSERT INTO sessions (org_id, id, state, state_at, started_at, last_seen_at, platform, platform_at)
         VALUES ($1, $2, 'active', $3, $3, $3, 'cells', $3)`,
      values.slice(0, 3),
    );
    await sql(
      db.adminUrl,
      `INSERT INTO events (org_id, id, session_id, agent_id, action_type, tool_name, decision, timestamp, received_at)
         VALUES ($1, $4, $2, $5, 'FILE_READ', 'cat', 'allow', $3, $3)`,
      values,
    );
    await sql(
      db.adminUrl,
      `INSERT INTO agents (org_id, id, platform, first_seen, last_seen) VALUES ($1, $2, 'cells', $3, $3)`,
      [tenant.orgId, agent, at],
    );
    // Published after the API started: its directory learns them on the organizations' first request.
    await publishRoutes(env, [
      route({ org_id: tenant.orgId, database: db.database, schema_version: db.schemaVersion }),
      route({ org_id: pending.orgId, state: 'provisioning', database: 'tenant_pending', schema_version: null }),
      route({ org_id: behind.orgId, database: db.database, schema_version: '1' }),
    ]);
  });

  afterAll(async () => {
    await api?.app.close();
    await sql(databaseConfigFromEnv(env).adminUrl, 'DELETE FROM tenancy_data_keys WHERE org_id = $1', [tenant?.orgId]);
    await db?.drop();
  });

  it("reads a provisioned tenant's rows from its cell's database with the tenant's own credential", async () => {
    const sessions = await get('/v1/sessions', tenant);
    expect(sessions.status).toBe(200);
    expect((sessions.body.sessions as Row[]).map((s) => s.id)).toEqual([session]);
    expect(await get(`/v1/sessions/${session}`, tenant)).toMatchObject({
      status: 200,
      body: { id: session, platform: 'cells', risk_summary: { total_events: 1 } },
    });
    expect(await get(`/v1/events/${event}`, tenant)).toMatchObject({ status: 200, body: { id: event } });
    // The whole-session stream runs its own transaction on the tenant database's pool.
    const streamed = await get(`/v1/sessions/${session}/events`, tenant);
    expect((streamed.body.events as Row[]).map((e) => e.id)).toEqual([event]);
    const agents = await get('/v1/agents', tenant);
    expect((agents.body.agents as Row[]).map((a) => a.id)).toEqual([agent]);
    expect((await get('/v1/events/stats', tenant)).body).toMatchObject({ total: 1 });

    // Nothing of it is in the shared database: the answers above came from the second server.
    const shared = databaseConfigFromEnv(env).adminUrl;
    const [counts] = await sql(
      shared,
      `SELECT (SELECT count(*) FROM events WHERE org_id = $1)::int AS events,
              (SELECT count(*) FROM sessions WHERE org_id = $1)::int AS sessions`,
      [tenant.orgId],
    );
    expect(counts).toEqual({ events: 0, sessions: 0 });
  });

  it("gives another organization 404 for the tenant's rows", async () => {
    expect((await get(`/v1/sessions/${session}`, other)).status).toBe(404);
    expect((await get(`/v1/events/${event}`, other)).status).toBe(404);
    expect((await get(`/v1/sessions/${session}/events`, other)).status).toBe(404);
    expect((await get('/v1/sessions', other)).body).toMatchObject({ sessions: [] });
  });

  it('refuses every ingest route of a tenant whose database is not migrated: 503 {error} with Retry-After', async () => {
    const now = new Date().toISOString();
    const answers = await Promise.all([
      post('/v1/events/ingest', { events: [{ action_type: 'FILE_READ', timestamp: now }] }, pending),
      post('/v1/sessions/ingest', { session_id: randomUUID(), state: 'active', timestamp: now }, pending),
      post('/v1/ingest', { events: [{ action_type: 'FILE_READ', timestamp: now }] }, pending),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('30');
      expect(answer.body).toEqual({ error: expect.stringContaining('not ready') });
      expect(Object.keys(answer.body)).toEqual(['error']);
    }
  });

  it('answers reads 503 while the database is not migrated or behind this build, never from the shared one', async () => {
    for (const org of [pending, behind]) {
      for (const path of ['/v1/sessions', '/v1/events', `/v1/sessions/${session}/events`, '/v1/agents']) {
        const answer = await get(path, org);
        expect({ path, status: answer.status }).toEqual({ path, status: 503 });
        expect(answer.body).toEqual({ error: expect.any(String) });
      }
    }
    expect((await get('/v1/events', behind)).body).toEqual({ error: expect.stringContaining('being upgraded') });
  });

  it("seals the tenant's ingested records and check-ins on the topics with its data key; a self-service organization's stay plain", async () => {
    const marker = `/home/dev/.aws/credentials-${randomUUID().slice(0, 8)}`;
    const batch = { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString(), arguments: [marker] }] };
    expect(await post('/v1/events/ingest', batch, tenant)).toMatchObject({ status: 200, body: { ingested: 1 } });
    expect(await post('/v1/events/ingest', batch, other)).toMatchObject({ status: 200, body: { ingested: 1 } });

    const ofBoth = (records: RawRecord[]) => [tenant, other].every((org) => records.some((r) => r.orgId === org.orgId));
    const records = await readRawRecords(env, TOPICS.ingestEvents.name, ofBoth);
    const sealed = records.find((r) => r.orgId === tenant.orgId);
    const plain = records.find((r) => r.orgId === other.orgId);
    expect(sealed?.headers).toMatchObject({ aw_sealed: 'v1', ce_source: `/orgs/${tenant.orgId}` });
    expect(sealed?.value.toString()).not.toContain(marker);
    expect(plain?.headers.aw_sealed).toBeUndefined();
    expect(plain?.value.toString()).toContain(marker);

    // The tenant's check-in (its machine's hostname, OS and daemon version) is sealed too; the control
    // plane opens it with the key it holds (the lifecycle suite sees the tenant activated by it).
    const checkins = await readRawRecords(env, TOPICS.ingestCheckins.name, ofBoth);
    const checkin = checkins.find((r) => r.orgId === tenant.orgId);
    expect(checkin?.headers.aw_sealed).toBe('v1');
    expect(checkin?.value.toString()).not.toContain('first_ingest');
    const plainCheckin = checkins.find((r) => r.orgId === other.orgId);
    expect(JSON.parse(plainCheckin?.value.toString() ?? '')).toMatchObject({ org_id: other.orgId });
  });
});
