import { TOPICS } from '@agentwatch/contracts';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { call, eventually, RunningStack, startStack } from '@agentwatch/testing';
import { v7 as uuidv7 } from 'uuid';
import { openSse } from '../../libs/testing/src/control-plane-sse';
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

// The whole lifecycle over HTTP with two operator identities: request → watch → approve → db-ready →
// mint → ingest through the cloud API → active → deprovision → second approval → database gone.
describe('tenant lifecycle', () => {
  let operators: Operators;
  let stack: RunningStack;
  let cp: RunningControlPlane;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const slug = uniqueSlug('life');
  const database = `tenant_${slug}`;

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cplife');
    const env = controlPlaneEnv('tenancy-life', operators, db.env);
    stack = await startStack('tenancy-life', db.env);
    cp = await startControlPlaneApp(env);
  });

  afterAll(async () => {
    await cp?.stop();
    await stack?.stop();
    await operators?.idp.stop();
    if (cp) await dropTenantDatabase(cp.env, database);
    await db?.drop();
  });

  /** Every value of one topic of this suite, read from the beginning until `enough` holds. */
  async function readTopic(topic: string, enough: (values: string[]) => boolean): Promise<string[]> {
    const settings = kafkaSettingsFromEnv('tenancy-test-reader', cp.env);
    const consumer = createKafka(settings).consumer({ groupId: `${settings.prefix}reader-${uuidv7()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: settings.prefix + topic, fromBeginning: true });
    const values: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        values.push(message.value?.toString() ?? '');
      },
    });
    try {
      await eventually(async () => values, enough, { what: `records on ${topic}` });
    } finally {
      await consumer.disconnect();
    }
    return values;
  }

  const detail = async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body;

  it('runs from request to deprovisioned', async () => {
    const requested = await call(`${cp.url}/v1/tenants`, {
      method: 'POST',
      token: operators.alice,
      body: {
        slug,
        name: 'Acme Corp',
        owner_email: 'it@acme.test',
        region: 'local',
        plan_tier: 'team',
        isolation: 'shared',
      },
    });
    expect(requested.status).toBe(202);
    expect(requested.body).toEqual({
      slug,
      state: 'requested',
      poll_url: `/v1/tenants/${slug}`,
      stream_url: `/v1/tenants/${slug}/events`,
    });

    const sse = openSse(`${cp.url}${requested.body.stream_url}`, operators.viewer);
    await eventually(
      async () => sse.events.map((e) => e.event),
      (types) => types.includes('ApprovalRequested'),
      {
        what: 'pending-approval on the stream',
      },
    );
    expect(sse.headers?.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await detail()).state).toBe('pending-approval');

    // Four eyes: the requester may not approve.
    const self = await call(`${cp.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.alice });
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ error: 'forbidden' });
    const early = await call(`${cp.url}/v1/tenants/${slug}/tokens`, { method: 'POST', token: operators.alice });
    expect(early.status).toBe(409);

    const approved = await call(`${cp.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.bob });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ slug, state: 'provisioning' });

    const ready = await eventually(
      detail,
      (d) => (d.placement as { schema_version: unknown } | undefined)?.schema_version != null,
      {
        what: 'db-ready',
      },
    );
    expect(ready).toMatchObject({
      database_name: database,
      cell: 'local-1',
      requester: 'alice@ops.test',
      approver: 'bob@ops.test',
    });
    expect(await tenantDatabaseExists(cp.env, database)).toBe(true);
    const tables = await queryDatabase<{ table_name: string }>(
      cp.env,
      database,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['events', 'deploy_tokens', 'sessions', 'migrations']),
    );

    const minted = await call<{ token: string; organization_id: string; prefix: string }>(
      `${cp.url}/v1/tenants/${slug}/tokens`,
      { method: 'POST', token: operators.alice },
    );
    expect(minted.status).toBe(201);
    const { token, organization_id: orgId } = minted.body;
    expect(token.startsWith(minted.body.prefix)).toBe(true);
    expect(orgId).toBe((await detail()).organization_id); // the token is the tenant organization's

    // The cloud API accepts the token for the tenant's organization once the projector applied it.
    const ingest = () =>
      call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token,
        body: { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString(), tool_name: 'cat' }] },
      });
    await eventually(ingest, (a) => a.status === 200, {
      what: 'ingest accepted with the tenant token',
      timeoutMs: 45_000,
    });

    // The first ingest with the token is the daemon's first check-in: the cloud API publishes it on
    // ingest.checkins.v1 and the control plane activates the tenant.
    const activated = await eventually(detail, (d) => d.state === 'active', { what: 'active' });
    expect(typeof activated.activated_at).toBe('string');

    const short = await call(`${cp.url}/v1/tenants/${slug}/deprovision`, {
      method: 'POST',
      token: operators.alice,
      body: { justification: 'too short' },
    });
    expect(short.status).toBe(422);
    const deprovision = await call(`${cp.url}/v1/tenants/${slug}/deprovision`, {
      method: 'POST',
      token: operators.alice,
      body: { justification: 'customer contract ended on 2026-11-01' },
    });
    expect(deprovision.status).toBe(202);
    expect(deprovision.body).toMatchObject({ flow_kind: 'offboard', state: 'pending-approval' });
    const selfOffboard = await call(`${cp.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.alice });
    expect(selfOffboard.status).toBe(403);
    const offApproved = await call(`${cp.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.bob });
    expect(offApproved.status).toBe(200);
    expect(offApproved.body).toMatchObject({ flow_kind: 'offboard', state: 'deprovisioning' });

    await eventually(detail, (d) => d.state === 'deprovisioned', { what: 'deprovisioned' });
    expect(await tenantDatabaseExists(cp.env, database)).toBe(false);
    await eventually(ingest, (a) => a.status === 401, { what: 'token refused after deprovision', timeoutMs: 60_000 });

    await eventually(
      async () => sse.events.map((e) => e.event),
      (t) => t.includes('TenantDeprovisioned'),
      {
        what: 'the stream follows the offboard flow',
      },
    );
    sse.close();
    await sse.done;
    const journal = await queryDatabase<{ position: string; type: string }>(
      cp.env,
      null,
      'SELECT position, type FROM tenancy_journal WHERE slug = $1 ORDER BY position',
      [slug],
    );
    expect(sse.events.map((e) => e.id)).toEqual(journal.map((j) => j.position));
    const types = journal.map((j) => j.type);
    // The token is minted once db-ready is seen; the engine may have routed by then or not.
    expect(types.indexOf('IngestTokenMinted')).toBeGreaterThan(types.indexOf('DatabaseMigrated'));
    expect(types.filter((t) => t !== 'IngestTokenMinted')).toEqual([
      'TenantRequested',
      'ApprovalRequested',
      'FlowApproved',
      'CellPlaced',
      'DatabaseMigrated',
      'RouteRecorded',
      'FirstCheckinAwaited',
      'FirstCheckinReceived',
      'DeprovisionRequested',
      'FlowApproved',
      'TokensRevoked',
      'RouteRemoved',
      'IdentityErased',
      'TenantDeprovisioned',
      'DatabaseDropped',
    ]);
    // The raw token appears in no journal row, no stream frame, no outbox record.
    expect(JSON.stringify(journal)).not.toContain(token);
    expect(JSON.stringify(sse.events)).not.toContain(token);
    const outbox = await queryDatabase(cp.env, null, 'SELECT payload FROM tenancy_outbox');
    expect(JSON.stringify(outbox)).not.toContain(token);

    // What left through the outbox: the flow's events on tenancy.flows.v1 in journal order (key: slug),
    // the token's hash on tenancy.tokens.v1, and the raw token on neither.
    const flows = await readTopic(
      TOPICS.tenancyFlows.name,
      (values) => values.filter((v) => v.includes(`"slug":"${slug}"`)).length >= journal.length,
    );
    const ours = flows.filter((v) => v.includes(`"slug":"${slug}"`)).map((v) => JSON.parse(v));
    expect(ours.map((e) => String(e.position))).toEqual(journal.map((j) => j.position));
    const tokens = await readTopic(
      TOPICS.tenancyTokens.name,
      (values) => values.filter((v) => v.includes(slug)).length >= 2,
    );
    expect(tokens.filter((v) => v.includes(slug)).map((v) => JSON.parse(v).action)).toEqual(['minted', 'revoked']);
    expect([...flows, ...tokens].join('\n')).not.toContain(token);
  });
});
