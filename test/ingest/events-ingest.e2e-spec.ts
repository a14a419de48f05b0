import { randomUUID } from 'node:crypto';
import { eventIdFor } from '@agentwatch/ingest';
import { call, createOrganization, eventually, RunningStack, startStack, TestOrganization } from '@agentwatch/testing';

interface EventsPage {
  events: { id: string; action_type: string; tool_name: string | null; arguments: string[]; timestamp: string }[];
  next_cursor: string | null;
}

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, second)).toISOString();

describe('event ingest → Kafka → projector → query (over HTTP)', () => {
  let stack: RunningStack;
  let orgA: TestOrganization;
  let orgB: TestOrganization;

  const ingest = (token: string | undefined, body: unknown, options: { gzip?: boolean } = {}) =>
    call(`${stack.apiUrl}/v1/events/ingest`, { method: 'POST', token, body, ...options });
  const sessionEvents = (token: string, sessionId: string) =>
    call<EventsPage>(`${stack.apiUrl}/v1/sessions/${sessionId}/events`, { token });
  const projected = (token: string, sessionId: string, count: number) =>
    eventually(
      () => sessionEvents(token, sessionId),
      (answer) => answer.status === 200 && answer.body.events.length >= count,
      { what: `${count} events of session ${sessionId}` },
    );

  beforeAll(async () => {
    stack = await startStack('e2e-ingest');
    [orgA, orgB] = await Promise.all([createOrganization('org A', stack.env), createOrganization('org B', stack.env)]);
  });

  afterAll(() => stack?.stop());

  it('serves liveness and readiness', async () => {
    expect(await call(`${stack.apiUrl}/health`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await call(`${stack.apiUrl}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      checks: { kafka: { status: 'up' }, postgres: { status: 'up' } },
    });
  });

  it('describes every route in the OpenAPI document it serves', async () => {
    const docs = await call(`${stack.apiUrl}/docs`);
    expect(docs.status).toBe(200);
    const openapi = await call<{
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    }>(`${stack.apiUrl}/openapi.json`);
    const routes = Object.entries(openapi.body.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'GET /health',
        'GET /ready',
        'POST /v1/tenant',
        'GET /v1/tenant',
        'POST /v1/api-keys',
        'GET /v1/api-keys',
        'DELETE /v1/api-keys/{id}',
        'POST /v1/deploy-tokens',
        'GET /v1/deploy-tokens',
        'DELETE /v1/deploy-tokens/{id}',
        'POST /v1/machines/register',
        'GET /v1/machines',
        'DELETE /v1/machines/{machineId}',
        'POST /v1/events/ingest',
        'GET /v1/events',
        'GET /v1/events/stats',
        'GET /v1/events/{id}',
        'POST /v1/sessions/ingest',
        'GET /v1/sessions',
        'GET /v1/sessions/{id}',
        'GET /v1/sessions/{id}/children',
        'GET /v1/sessions/{id}/events',
        'POST /v1/ingest',
        'GET /v1/agents',
      ].sort(),
    );
    const ingest = openapi.body.paths['/v1/events/ingest'].post;
    expect(Object.keys(ingest.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '429', '503']);
    expect(ingest.requestBody).toBeDefined();
    // Every filter a list route reads is a documented query parameter, so clients and fuzzers find it.
    const queryOf = (path: string) =>
      ((openapi.body.paths[path].get as { parameters?: { in: string; name: string }[] }).parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort();
    expect(queryOf('/v1/events')).toEqual(
      [
        'agent_id',
        'session_id',
        'action_type',
        'tool_name',
        'min_risk',
        'max_risk',
        'since',
        'end_time',
        'decision',
        'limit',
        'cursor',
      ].sort(),
    );
    expect(queryOf('/v1/sessions')).toEqual(
      ['state', 'platform', 'parent_id', 'root_only', 'since', 'end_time', 'limit', 'cursor'].sort(),
    );
    expect(queryOf('/v1/agents')).toEqual(['cursor', 'limit']);
    expect(queryOf('/v1/sessions/{id}/events')).toEqual(['cursor', 'limit']);
  });

  it('reads two ingested batches back in timestamp order, and only for their organization', async () => {
    const session = randomUUID();
    const first = await ingest(orgA.token, {
      events: [
        {
          action_type: 'FILE_READ',
          timestamp: at(3),
          tool_name: 'cat',
          arguments: ['/etc/hosts'],
          session_id: session,
          agent_id: 'claude-code',
        },
        {
          action_type: 'PROCESS_EXEC',
          timestamp: at(1),
          tool_name: 'bash',
          arguments: ['-c', 'ls'],
          session_id: session,
        },
        {
          action_type: 'NETWORK_CONNECT',
          timestamp: at(5),
          tool_name: 'curl',
          arguments: ['example.com:443'],
          session_id: session,
        },
      ],
    });
    expect(first).toMatchObject({ status: 200, body: { ingested: 3 } });
    const second = await ingest(orgA.token, {
      events: [
        { action_type: 'FILE_WRITE', timestamp: at(2), tool_name: 'tee', arguments: ['/tmp/out'], session_id: session },
        { action_type: 'FILE_DELETE', timestamp: at(4), tool_name: 'rm', arguments: ['/tmp/out'], session_id: session },
      ],
    });
    expect(second).toMatchObject({ status: 200, body: { ingested: 2 } });

    const page = await projected(orgA.token, session, 5);
    expect(page.body.events.map((e) => [e.timestamp, e.action_type])).toEqual([
      [at(1), 'PROCESS_EXEC'],
      [at(2), 'FILE_WRITE'],
      [at(3), 'FILE_READ'],
      [at(4), 'FILE_DELETE'],
      [at(5), 'NETWORK_CONNECT'],
    ]);
    expect(page.body.events[2]).toMatchObject({ tool_name: 'cat', arguments: ['/etc/hosts'], risk_score: null });
    expect(page.body.next_cursor).toBeNull();

    const asOtherOrg = await sessionEvents(orgB.token, session);
    expect(asOtherOrg.status).toBe(404);
    expect(asOtherOrg.body).toEqual({ error: 'Session not found' });
  });

  it('pages through a session with limit and next_cursor, without gaps or repeats', async () => {
    const session = randomUUID();
    const events = Array.from({ length: 25 }, (_, i) => ({
      action_type: 'FILE_READ',
      timestamp: at(i % 7),
      tool_name: `t${i}`,
      session_id: session,
    }));
    expect((await ingest(orgA.token, { events })).status).toBe(200);
    await projected(orgA.token, session, 25);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=10${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call<EventsPage>(`${stack.apiUrl}/v1/sessions/${session}/events?${query}`, {
        token: orgA.token,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.events.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it('exports ingest and projection metrics for Prometheus', async () => {
    const scrapeProjector = async () => {
      const scrape = await call(`${stack.projectorUrl}/metrics`);
      expect(scrape.status).toBe(200);
      const text = String(scrape.body);
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
      return {
        text,
        value,
        records: value(
          /agentwatch_projection_records_total\{projection="events",topic="[^"]*ingest\.events\.v1"\} (\d+)/,
        ),
        latencies: value(/agentwatch_projection_latency_seconds_count\{projection="events"\} (\d+)/),
      };
    };
    const before = await scrapeProjector();
    // One request's records share their CloudEvents time and, in one session, a partition: the
    // latency is observed per run of them (at most once per fetch that carries some), not per record.
    const session = randomUUID();
    const events = Array.from({ length: 20 }, (_, i) => ({
      action_type: 'FILE_READ' as const,
      timestamp: at(i),
      session_id: session,
    }));
    expect((await ingest(orgA.token, { events })).status).toBe(200);
    await projected(orgA.token, session, 20);
    const after = await scrapeProjector();
    const { text, value } = after;
    expect(after.records - before.records).toBe(20);
    expect(after.latencies - before.latencies).toBeGreaterThan(0);
    expect(after.latencies - before.latencies).toBeLessThan(20);
    expect(text).toMatch(/agentwatch_consumer_lag_records\{projection="events"/);
    expect(value(/agentwatch_kafka_produced_records_total\{topic="[^"]*ingest\.events\.v1"\} (\d+)/)).toBeGreaterThan(
      0,
    );
  });

  it('accepts a gzip-compressed batch', async () => {
    const session = randomUUID();
    const answer = await ingest(
      orgA.token,
      { events: [{ action_type: 'FILE_READ', timestamp: at(1), session_id: session }] },
      { gzip: true },
    );
    expect(answer).toMatchObject({ status: 200, body: { ingested: 1 } });
    await projected(orgA.token, session, 1);
  });

  it('stores a retried batch with client event ids once', async () => {
    const session = randomUUID();
    const batch = {
      events: [1, 2, 3].map((i) => ({
        event_id: `evt-${session}-${i}`,
        action_type: 'FILE_READ',
        timestamp: at(i),
        session_id: session,
      })),
    };
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await ingest(orgA.token, batch)).body).toEqual({ ingested: 3 });
    // A later marker in the same session (same partition, so projected after the retries).
    await ingest(orgA.token, { events: [{ action_type: 'PROCESS_EXEC', timestamp: at(9), session_id: session }] });
    const page = await projected(orgA.token, session, 4);
    expect(page.body.events).toHaveLength(4);
  });

  it('stores a named event under the id of its event_id and instant, time-ordered from the cut-over on', async () => {
    const session = randomUUID();
    const item = (event_id: string, timestamp: string) => ({
      event_id,
      action_type: 'FILE_READ',
      timestamp,
      session_id: session,
    });
    const sent = [
      item('named', '2026-11-01T12:00:00.000Z'),
      item('named', '2026-12-01T12:00:00.000Z'),
      item('named', '2026-12-01T13:00:00.000+01:00'),
      item('other', '2026-12-01T12:00:00.001Z'),
    ];
    expect((await ingest(orgA.token, { events: sent })).body).toEqual({ ingested: 4 });
    const page = await projected(orgA.token, session, 3);
    const expected = [
      eventIdFor(orgA.orgId, 'named', '2026-11-01T12:00:00.000Z'),
      eventIdFor(orgA.orgId, 'named', '2026-12-01T12:00:00.000Z'),
      eventIdFor(orgA.orgId, 'other', '2026-12-01T12:00:00.001Z'),
    ];
    expect(page.body.events.map((e) => e.id)).toEqual(expected);
    expect(expected.map((id) => id[14])).toEqual(['5', '8', '8']);
    expect(expected[1] < expected[2]).toBe(true);
    for (const id of expected) {
      const one = await call<{ id: string }>(`${stack.apiUrl}/v1/events/${id}`, { token: orgA.token });
      expect([one.status, one.body.id]).toEqual([200, id]);
    }
  });

  describe('refusals', () => {
    const valid = { action_type: 'FILE_READ', timestamp: at(1) };

    it('401 without an Authorization header', async () => {
      expect(await ingest(undefined, { events: [valid] })).toMatchObject({
        status: 401,
        body: { error: 'Authorization header required' },
      });
    });

    it('401 for an unknown or malformed token', async () => {
      for (const token of ['svc_deploy_notarealtoken000000000000', 'garbage']) {
        expect(await ingest(token, { events: [valid] })).toMatchObject({
          status: 401,
          body: { error: 'Invalid token' },
        });
      }
      const notBearer = await call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        body: { events: [] },
        headers: { authorization: `Basic ${orgA.token}` },
      });
      expect(notBearer).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    });

    it('400 for a body that is not JSON', async () => {
      const answer = await call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token: orgA.token,
        raw: '{"events": [',
      });
      expect(answer).toMatchObject({ status: 400, body: { error: 'Malformed JSON body' } });
    });

    it('400 with the index and path of an action_type outside the enum and of a missing timestamp', async () => {
      const answer = await ingest(orgA.token, {
        events: [valid, { action_type: 'FILE_EXECUTE', timestamp: at(1) }, { action_type: 'FILE_READ' }],
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: 'Invalid request body' });
      const details = answer.body.details as { index: number; path: string; message: string }[];
      expect(details).toEqual([
        { index: 1, path: 'action_type', message: expect.any(String) },
        { index: 2, path: 'timestamp', message: expect.any(String) },
      ]);
    });

    it('400 when events is missing, and 413 beyond 1000 items', async () => {
      expect(await ingest(orgA.token, { items: [] })).toMatchObject({
        status: 400,
        body: { details: [{ index: null, path: 'events' }] },
      });
      const tooMany = await ingest(orgA.token, { events: Array.from({ length: 1001 }, () => valid) });
      expect(tooMany.status).toBe(413);
      expect(tooMany.body.error).toMatch(/at most 1000/);
    });

    it('413 for a body over 5 MB, plain or once gzip-decompressed, and 415 for another encoding', async () => {
      const huge = JSON.stringify({ events: [{ ...valid, arguments: ['x'.repeat(6 * 1024 * 1024)] }] });
      expect(
        await call(`${stack.apiUrl}/v1/events/ingest`, { method: 'POST', token: orgA.token, raw: huge }),
      ).toMatchObject({ status: 413 });
      // A small gzip body that inflates past the limit is refused without being inflated whole.
      const bomb = await call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token: orgA.token,
        raw: huge,
        gzip: true,
      });
      expect(bomb.status).toBe(413);
      expect(bomb.body.error).toMatch(/decompressed/);
      const brotli = await call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token: orgA.token,
        body: { events: [valid] },
        headers: { 'content-encoding': 'br' },
      });
      expect(brotli).toMatchObject({ status: 415, body: { error: expect.stringMatching(/Content-Encoding/) } });
    });

    it('accepts a body just under 5 MB whose 1000 events share one session (one partition), and projects them all', async () => {
      const session = randomUUID();
      const events = Array.from({ length: 1000 }, (_, i) => ({
        ...valid,
        session_id: session,
        tool_name: `big-${i}`,
        arguments: ['y'.repeat(5000)],
      }));
      const body = JSON.stringify({ events });
      expect(body.length).toBeGreaterThan(4.9 * 1024 * 1024);
      expect(body.length).toBeLessThan(5 * 1024 * 1024);
      expect(await ingest(orgA.token, { events })).toMatchObject({ status: 200, body: { ingested: 1000 } });
      const page = await eventually(
        () => call<EventsPage>(`${stack.apiUrl}/v1/events?session_id=${session}&limit=1000`, { token: orgA.token }),
        (answer) => answer.status === 200 && answer.body.events.length >= 1000,
        { what: '1000 large events projected' },
      );
      expect(new Set(page.body.events.map((e) => e.tool_name)).size).toBe(1000);
    });

    it('ingests nothing of a batch with one invalid item', async () => {
      const session = randomUUID();
      const rejected = await ingest(orgA.token, {
        events: [
          { ...valid, session_id: session, tool_name: 'should-not-exist' },
          { action_type: 'NOPE', timestamp: at(2), session_id: session },
        ],
      });
      expect(rejected.status).toBe(400);
      await ingest(orgA.token, { events: [{ ...valid, session_id: session, tool_name: 'marker' }] });
      const page = await projected(orgA.token, session, 1);
      expect(page.body.events.map((e) => e.tool_name)).toEqual(['marker']);
    });

    it('400 for a malformed session id, 404 for an unknown one', async () => {
      expect(await sessionEvents(orgA.token, 'not-a-uuid')).toMatchObject({
        status: 400,
        body: { error: 'Invalid id: expected a UUID' },
      });
      expect(await sessionEvents(orgA.token, randomUUID())).toMatchObject({
        status: 404,
        body: { error: 'Session not found' },
      });
    });
  });
});
