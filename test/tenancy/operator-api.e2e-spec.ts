import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEV_OPERATOR_ISSUER, mintDevOperatorToken, tenancySettingsFromEnv } from '@agentwatch/tenancy';
import { call, eventually } from '@agentwatch/testing';
import { openSse, SseEvent } from '../../libs/testing/src/control-plane-sse';
import {
  controlPlaneEnv,
  isolatedDatabase,
  Operators,
  queryDatabase,
  RunningControlPlane,
  startControlPlaneApp,
  startOperators,
  tenantDatabaseExists,
  uniqueSlug,
} from '../../libs/testing/src/control-plane-stack';

// Validation, the 400/403/409/422 matrix, operator auth, concurrency and SSE resumption, over HTTP.
describe('operator API', () => {
  let operators: Operators;
  let cp: RunningControlPlane;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const body = (slug: string) => ({
    slug,
    name: 'Globex',
    owner_email: 'it@globex.test',
    region: 'local',
    plan_tier: 'core',
    isolation: 'shared',
  });

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cpapi');
    cp = await startControlPlaneApp(controlPlaneEnv('tenancy-api', operators, db.env));
  });

  afterAll(async () => {
    await cp?.stop();
    await operators?.idp.stop();
    await db?.drop();
  });

  const post = (path: string, token: string | undefined, payload?: unknown, raw?: string) =>
    call(`${cp.url}${path}`, { method: 'POST', token, body: payload, raw });

  const pendingTenant = async () => {
    const slug = uniqueSlug('api');
    expect((await post('/v1/tenants', operators.alice, body(slug))).status).toBe(202);
    await eventually(
      async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body.state,
      (s) => s === 'pending-approval',
      { what: 'pending-approval' },
    );
    return slug;
  };

  it('answers every authentication failure with the same fixed 403, never 401', async () => {
    const slug = uniqueSlug('auth');
    const forged = await operators.idp.token(
      { sub: 'mallory', role: 'operator', azp: 'agentwatch-operator' },
      { foreignKey: true },
    );
    const expired = await operators.idp.token(
      { sub: 'alice', role: 'operator', azp: 'agentwatch-operator' },
      { expiresIn: -60 },
    );
    const otherIssuer = await operators.idp.token(
      { sub: 'alice', role: 'operator', azp: 'agentwatch-operator' },
      { issuer: 'https://elsewhere.test' },
    );
    const noRole = await operators.idp.token({ sub: 'alice', azp: 'agentwatch-operator' });
    const answers = [];
    for (const token of [undefined, 'not-a-jwt', forged, expired, otherIssuer, noRole, operators.product]) {
      answers.push(await post('/v1/tenants', token, body(slug)));
      answers.push(await call(`${cp.url}/v1/tenants/${slug}`, { token }));
      answers.push(await post('/v1/tenants', token, undefined, '{"slug":')); // malformed: still 403 first
    }
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'forbidden', detail: 'a valid operator token is required' });
    }
  });

  it('refuses a viewer on every write route (403) and lets it read', async () => {
    const slug = await pendingTenant();
    const writes: [string, unknown][] = [
      ['/v1/tenants', body(uniqueSlug('viewer'))],
      [`/v1/tenants/${slug}/approve`, undefined],
      [`/v1/tenants/${slug}/reject`, { reason: 'not a customer' }],
      [`/v1/tenants/${slug}/cancel`, { reason: 'not a customer' }],
      [`/v1/tenants/${slug}/resume`, undefined],
      [`/v1/tenants/${slug}/tokens`, undefined],
      [`/v1/tenants/${slug}/deprovision`, { justification: 'contract ended last month, sorry' }],
    ];
    for (const [path, payload] of writes) {
      const answer = await post(path, operators.viewer, payload);
      expect({ path, status: answer.status, error: answer.body.error }).toEqual({
        path,
        status: 403,
        error: 'forbidden',
      });
    }
    expect((await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).status).toBe(200);
  });

  it('validates the request body: 400 for shape, 422 for rules, and every detail names the field at fault', async () => {
    const slug = uniqueSlug('val');
    const { name: _, ...nameless } = body(slug);
    const cases: [unknown, string | undefined, number, string, string][] = [
      [{ ...body(slug), colour: 'blue' }, undefined, 400, 'bad_request', 'colour: unknown field'],
      [
        { ...body(slug), colour: 1, size: 2 },
        undefined,
        400,
        'bad_request',
        'colour: unknown field; size: unknown field',
      ],
      [undefined, '{"slug": "x",', 400, 'bad_request', 'body: not one well-formed JSON document'],
      [
        undefined,
        `${JSON.stringify(body(slug))}${JSON.stringify(body(slug))}`,
        400,
        'bad_request',
        'body: not one well-formed JSON document',
      ],
      [[body(slug)], undefined, 400, 'bad_request', 'body: must be a JSON object'],
      [
        { ...body(slug), gateways: ['gw-1'] },
        undefined,
        422,
        'unprocessable',
        'gateways: not accepted on this surface',
      ],
      [
        { ...body(slug), plan_tier: 'trial' },
        undefined,
        422,
        'unprocessable',
        'plan_tier: one of core, team, enterprise',
      ],
      [{ ...body(slug), isolation: 'dedicated' }, undefined, 422, 'unprocessable', 'isolation: only shared is offered'],
      [{ ...body(slug), slug: 's'.repeat(57) }, undefined, 422, 'unprocessable', 'slug: at most 56 characters'],
      [{ ...body(slug), owner_email: 'nobody' }, undefined, 422, 'unprocessable', 'owner_email: must contain @'],
      [{ ...body(slug), notes: 'n'.repeat(2001) }, undefined, 422, 'unprocessable', 'notes: at most 2000 characters'],
    ];
    for (const [payload, raw, status, error, detail] of cases) {
      const answer = await post('/v1/tenants', operators.alice, payload, raw);
      expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { error, detail } });
    }
    // Zod's own wording does not name the field: the detail still starts with it.
    const prefixed: [unknown, string[]][] = [
      [nameless, ['name: ']],
      [{ ...body(slug), slug: undefined, region: 7 }, ['slug: ', 'region: ']],
      [{ ...body(slug), security_profile_target: 'audit' }, ['security_profile_target: ']],
      [{ ...body(slug), dev_endpoints: 'many', server_endpoints: -1 }, ['dev_endpoints: ', 'server_endpoints: ']],
    ];
    for (const [payload, fields] of prefixed) {
      const answer = await post('/v1/tenants', operators.alice, payload);
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 422, error: 'unprocessable' });
      const parts = (answer.body.detail as string).split('; ');
      expect({ payload, fields: parts.map((part) => part.slice(0, part.indexOf(': ') + 2)) }).toEqual({
        payload,
        fields,
      });
    }
    expect((await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.alice })).status).toBe(404);
  });

  it('refuses a second live flow for a slug with 409 conflict', async () => {
    const slug = uniqueSlug('dup');
    const answers = await Promise.all([1, 2, 3].map(() => post('/v1/tenants', operators.alice, body(slug))));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409]);
    expect(answers.find((a) => a.status === 409)?.body.error).toBe('conflict');
  });

  it('lets one of two concurrent approvals win; the other gets 409', async () => {
    const slug = await pendingTenant();
    const carol = await operators.idp.token({ sub: 'carol@ops.test', role: 'operator', azp: 'agentwatch-operator' });
    const answers = await Promise.all([
      post(`/v1/tenants/${slug}/approve`, operators.bob, undefined),
      post(`/v1/tenants/${slug}/approve`, carol, undefined),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const approvals = await queryDatabase(
      cp.env,
      null,
      `SELECT 1 FROM tenancy_journal WHERE slug = $1 AND type = 'FlowApproved'`,
      [slug],
    );
    expect(approvals).toHaveLength(1);
    expect(
      (await post(`/v1/tenants/${slug}/cancel`, operators.alice, { reason: 'test over, release it' })).status,
    ).toBe(200);
    await eventually(
      async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body,
      (d) => d.state === 'cancelled' && d.presentation === 'done',
      { what: 'cancelled and compensated' },
    );
  });

  it('rejects with a reason (422 when too short), ending the flow in rejected', async () => {
    const slug = await pendingTenant();
    const refused = async (path: string, payload: unknown) => {
      const answer = await post(`/v1/tenants/${slug}/${path}`, operators.bob, payload);
      return { status: answer.status, body: answer.body };
    };
    const unprocessable = (detail: string) => ({ status: 422, body: { error: 'unprocessable', detail } });
    expect(await refused('reject', { reason: '' })).toEqual(unprocessable('reason: at least 3 characters'));
    expect(await refused('reject', { reason: 'x' })).toEqual(unprocessable('reason: at least 3 characters'));
    expect(await refused('reject', {})).toEqual(unprocessable('reason: required string'));
    expect(await refused('cancel', { reason: 'no' })).toEqual(unprocessable('reason: at least 3 characters'));
    expect(await refused('reject', { why: 'x' })).toEqual({
      status: 400,
      body: { error: 'bad_request', detail: 'why: unknown field' },
    });
    expect(await refused('approve', { note: 'x' })).toEqual({
      status: 400,
      body: { error: 'bad_request', detail: 'note: unknown field' },
    });
    expect(await refused('deprovision', { justification: 'too short' })).toEqual(
      unprocessable('justification: at least 20 characters'),
    );
    const rejected = await post(`/v1/tenants/${slug}/reject`, operators.bob, { reason: 'not a signed customer' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ slug, state: 'rejected' });
    expect((await post(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(409);
    expect((await post(`/v1/tenants/${slug}/resume`, operators.bob)).status).toBe(409);
    // The slug is free again.
    expect((await post('/v1/tenants', operators.alice, body(slug))).status).toBe(202);
  });

  it('resumes an SSE stream with Last-Event-ID: the union equals the journal, in order, no duplicates', async () => {
    const slug = await pendingTenant();
    const url = `${cp.url}/v1/tenants/${slug}/events`;
    const first = openSse(url, operators.viewer);
    await eventually(
      async () => first.events.length,
      (n) => n >= 2,
      { what: 'history replayed' },
    );
    first.close();
    await first.done;
    const seen: SseEvent[] = [...first.events];
    // Events happen while disconnected.
    expect((await post(`/v1/tenants/${slug}/reject`, operators.bob, { reason: 'duplicate request' })).status).toBe(200);
    const second = openSse(url, operators.viewer, seen[seen.length - 1].id);
    await eventually(
      async () => second.events.map((e) => e.event),
      (t) => t.includes('FlowRejected'),
      { what: 'resumed' },
    );
    await eventually(
      async () => second.comments,
      (c) => c.includes('heartbeat'),
      { what: 'a heartbeat' },
    );
    second.close();
    await second.done;
    const union = [...seen, ...second.events];
    const journal = await queryDatabase<{ position: string; type: string }>(
      cp.env,
      null,
      'SELECT position, type FROM tenancy_journal WHERE slug = $1 ORDER BY position',
      [slug],
    );
    expect(union.map((e) => [e.id, e.event])).toEqual(journal.map((j) => [j.position, j.type]));
    expect(union[0].data).toMatchObject({ slug, type: 'TenantRequested', actor: 'alice@ops.test' });
  });

  it('agentwatch tail prints the flow as it moves, one line per journal event in order, and stops on a refusal', async () => {
    const cli = path.resolve(__dirname, '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');
    const slug = await pendingTenant();
    const tail = spawn(process.execPath, [cli, 'tail', slug, '--url', cp.url, '--token', operators.viewer]);
    let out = '';
    tail.stdout.on('data', (chunk) => (out += chunk));
    try {
      await eventually(
        async () => out,
        (o) => o.includes('ApprovalRequested → pending-approval'),
        { what: 'tail shows the pending flow' },
      );
      expect((await post(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(200);
      await eventually(
        async () => out,
        (o) => o.includes('FirstCheckinAwaited → awaiting-first-checkin'),
        { what: 'tail follows the flow to awaiting-first-checkin' },
      );
    } finally {
      tail.kill();
    }
    const journal = await queryDatabase<{ position: string; type: string }>(
      cp.env,
      null,
      'SELECT position, type FROM tenancy_journal WHERE slug = $1 ORDER BY position',
      [slug],
    );
    const lines = out.trim().split('\n');
    expect(lines.map((l) => /^\S+ #(\d+) onboard (\w+)/.exec(l)?.slice(1))).toEqual(
      journal.slice(0, lines.length).map((j) => [String(j.position), j.type]),
    );
    expect(lines[0]).toMatch(/ #\d+ onboard TenantRequested → requested by alice@ops\.test \{/);
    expect(out).toMatch(/ FlowApproved → provisioning by bob@ops\.test/);
    expect(out).not.toContain('\u001b['); // not a terminal: no colour codes

    const refused = spawn(process.execPath, [cli, 'tail', slug, '--url', cp.url, '--token', 'not-a-jwt']);
    let err = '';
    refused.stderr.on('data', (chunk) => (err += chunk));
    expect(await new Promise((resolve) => refused.on('close', resolve))).toBe(1);
    expect(err).toMatch(/^agentwatch: 403 /);
  });

  it('acts on the live offboard flow (reject, stream), and a cancel releases what the flow created', async () => {
    const slug = await pendingTenant();
    const database = `tenant_${slug}`;
    const detail = async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body;
    expect((await post(`/v1/tenants/${slug}/approve`, operators.bob)).status).toBe(200);
    await eventually(detail, (d) => d.state === 'awaiting-first-checkin', { what: 'awaiting-first-checkin' });
    expect(await tenantDatabaseExists(cp.env, database)).toBe(true);

    const opened = await post(`/v1/tenants/${slug}/deprovision`, operators.alice, {
      justification: 'duplicate tenant opened by mistake',
    });
    expect(opened.status).toBe(202);
    expect(
      (
        await post(`/v1/tenants/${slug}/deprovision`, operators.alice, {
          justification: 'duplicate tenant opened by mistake',
        })
      ).status,
    ).toBe(409);
    // The stream replays the offboard flow while it is live; `curl -N` reads it as is.
    const curl = spawn('curl', [
      '-N',
      '-s',
      '-H',
      `Authorization: Bearer ${operators.viewer}`,
      `${cp.url}/v1/tenants/${slug}/events`,
    ]);
    let text = '';
    curl.stdout.on('data', (chunk) => (text += chunk));
    await eventually(
      async () => text,
      (t) => t.includes('event: DeprovisionRequested'),
      { what: 'curl -N output' },
    );
    curl.kill();
    expect(text).toMatch(/^retry: \d+\n\nid: \d+\nevent: DeprovisionRequested\ndata: \{/);
    expect(text).not.toContain('event: TenantRequested');

    const rejected = await post(`/v1/tenants/${slug}/reject`, operators.bob, { reason: 'keep the tenant' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ flow_kind: 'offboard', state: 'rejected' });
    expect(await detail()).toMatchObject({ state: 'awaiting-first-checkin', deprovision: { state: 'rejected' } });

    const cancelled = await post(`/v1/tenants/${slug}/cancel`, operators.alice, { reason: 'customer withdrew' });
    expect(cancelled.body).toMatchObject({ flow_kind: 'onboard', state: 'cancelled' });
    await eventually(detail, (d) => d.presentation === 'done', { what: 'compensation done' });
    expect(await tenantDatabaseExists(cp.env, database)).toBe(false);
    // The route stays as a tombstone: deprovisioned, no schema version, so the data plane routes nothing there.
    expect(
      await queryDatabase(cp.env, null, 'SELECT state, schema_version FROM tenancy_routes WHERE slug = $1', [slug]),
    ).toEqual([{ state: 'deprovisioned', schema_version: null }]);
    const released = await queryDatabase<{ data: Record<string, unknown> }>(
      cp.env,
      null,
      `SELECT data FROM tenancy_journal WHERE slug = $1 AND type = 'ResourcesReleased'`,
      [slug],
    );
    expect(released.map((r) => r.data)).toEqual([
      { dropped_database: database, removed_route: true, revoked_tokens: 0 },
    ]);
  });

  it('verifies tokens of the local development operator issuer while OPERATOR_JWKS_URL is unset', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-operator-issuer-'));
    const env = {
      ...cp.env,
      OPERATOR_JWKS_URL: '',
      OPERATOR_JWT_ISSUER: DEV_OPERATOR_ISSUER,
      OPERATOR_DEV_ISSUER_DIR: dir,
    };
    const token = await mintDevOperatorToken(
      tenancySettingsFromEnv(env, '').operator,
      { sub: 'dev', role: 'viewer' },
      60,
    );
    const dev = await startControlPlaneApp(env);
    const slug = await pendingTenant();
    try {
      expect((await call(`${dev.url}/v1/tenants/no-such-tenant`, { token })).status).toBe(404);
      // The dev issuer's token is not trusted where a real identity provider is configured.
      expect((await call(`${cp.url}/v1/tenants/${slug}`, { token })).status).toBe(403);
      // A stream still open when the process stops is ended, not waited for.
      const sse = openSse(`${dev.url}/v1/tenants/${slug}/events`, token);
      await eventually(
        async () => sse.events.length,
        (n) => n >= 2,
        { what: 'streaming' },
      );
      await dev.stop();
      await sse.done;
      expect(sse.events[0].event).toBe('TenantRequested');
    } finally {
      await dev.stop().catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents the routes in OpenAPI', async () => {
    const doc = await call<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>
      >;
    }>(`${cp.url}/openapi.json`);
    const requestBody = doc.body.paths['/v1/tenants'].post.requestBody?.content['application/json'].schema;
    expect(requestBody?.required).toEqual(
      expect.arrayContaining(['slug', 'name', 'owner_email', 'region', 'plan_tier', 'isolation']),
    );
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/tenants',
        '/v1/tenants/{slug}',
        '/v1/tenants/{slug}/events',
        '/v1/tenants/{slug}/approve',
        '/v1/tenants/{slug}/reject',
        '/v1/tenants/{slug}/cancel',
        '/v1/tenants/{slug}/resume',
        '/v1/tenants/{slug}/tokens',
        '/v1/tenants/{slug}/deprovision',
      ]),
    );
  });
});
