import { randomUUID } from 'node:crypto';
import { call, createOrganization, eventually, RunningStack, startStack, TestOrganization } from '@agentwatch/testing';

type Row = Record<string, unknown>;

const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const instant = (ms: number) => new Date(Date.UTC(2026, 2, 1) + ms).toISOString();

describe('whole lists and keyset pages: streamed answers, forged cursors', () => {
  let stack: RunningStack;
  let org: TestOrganization;
  const session = randomUUID();
  // More than one streaming chunk (1000 rows), and timestamps shared by pairs of events: the order is (timestamp, id).
  const COUNT = 1250;

  const api = (path: string, token = org.token) => call(`${stack.apiUrl}${path}`, { token });

  beforeAll(async () => {
    stack = await startStack('e2e-paging');
    org = await createOrganization('paging', stack.env);
    const items = Array.from({ length: COUNT }, (_, i) => ({
      event_id: `paging-${i}`,
      action_type: 'FILE_READ',
      timestamp: instant(Math.floor(i / 2) * 1000),
      session_id: session,
      agent_id: `agent-${i % 3}`,
      tool_name: 'cat',
      arguments: [`/src/${i}.ts`],
    }));
    // Sent newest first: the answer's order must come from the query, not from arrival.
    items.reverse();
    for (let i = 0; i < COUNT; i += 625) {
      const answer = await call(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token: org.token,
        body: { events: items.slice(i, i + 625) },
      });
      expect(answer).toMatchObject({ status: 200, body: { ingested: 625 } });
    }
    await eventually(
      async () => (await api(`/v1/sessions/${session}/events?limit=1000`)).body,
      (body) => Array.isArray(body.events) && (body.events as Row[]).length === 1000 && body.next_cursor !== null,
      { what: 'the session projected beyond 1000 events' },
    );
    await eventually(
      async () => (await api(`/v1/sessions/${session}`)).body,
      (body) => (body.risk_summary as Row | undefined)?.total_events === COUNT,
      { what: `${COUNT} events projected` },
    );
  });

  afterAll(() => stack?.stop());

  const inKeysetOrder = (events: Row[]) =>
    [...events].sort((x, y) =>
      x.timestamp === y.timestamp
        ? String(x.id).localeCompare(String(y.id))
        : String(x.timestamp).localeCompare(String(y.timestamp)),
    );

  it('answers every event of the session in timestamp order without limit, streamed as JSON', async () => {
    const answer = await api(`/v1/sessions/${session}/events`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    // Past one chunk the answer is written while it is read: no length known up front.
    expect(answer.headers.get('transfer-encoding')).toBe('chunked');
    expect(answer.headers.get('content-length')).toBeNull();
    const events = answer.body.events as Row[];
    expect(events).toHaveLength(COUNT);
    expect(answer.body.next_cursor).toBeNull();
    expect(new Set(events.map((e) => e.id)).size).toBe(COUNT);
    expect(events.map((e) => e.id)).toEqual(inKeysetOrder(events).map((e) => e.id));
    expect(events[0]).toMatchObject({ timestamp: instant(0), session_id: session, action_type: 'FILE_READ' });
    expect(events[COUNT - 1]).toMatchObject({ timestamp: instant(Math.floor((COUNT - 1) / 2) * 1000) });
    expect(new Set(events.map((e) => (e.arguments as string[])[0])).size).toBe(COUNT);
  });

  it('pages the same sequence with limit and cursor', async () => {
    const whole = ((await api(`/v1/sessions/${session}/events`)).body.events as Row[]).map((e) => e.id);
    const seen: unknown[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Row } = await api(
        `/v1/sessions/${session}/events?limit=400${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      sizes.push((page.body.events as Row[]).length);
      seen.push(...(page.body.events as Row[]).map((e) => e.id));
      cursor = page.body.next_cursor as string | null;
    } while (cursor);
    expect(sizes).toEqual([400, 400, 400, 50]);
    expect(seen).toEqual(whole);
    // Without limit, a cursor alone pages with the default size.
    const first = (await api(`/v1/sessions/${session}/events?limit=1`)).body;
    const rest = await api(`/v1/sessions/${session}/events?cursor=${first.next_cursor}`);
    expect((rest.body.events as Row[]).map((e) => e.id)).toEqual(whole.slice(1, 101));
  });

  it('answers 404 for an unknown session, streamed or paged', async () => {
    const unknown = randomUUID();
    expect(await api(`/v1/sessions/${unknown}/events`)).toMatchObject({
      status: 404,
      body: { error: 'Session not found' },
    });
    expect((await api(`/v1/sessions/${unknown}/events?limit=5`)).status).toBe(404);
  });

  it('answers every agent without limit, and pages them with limit', async () => {
    const whole = await api('/v1/agents');
    expect(whole.status).toBe(200);
    expect(whole.body.next_cursor).toBeNull();
    // A list that fits in its first chunk is answered whole, with its length.
    expect(whole.headers.get('transfer-encoding')).toBeNull();
    expect(Number(whole.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(whole.body)));
    const ids = (whole.body.agents as Row[]).map((a) => a.id);
    expect([...ids].sort()).toEqual(['agent-0', 'agent-1', 'agent-2']);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Row } = await api(`/v1/agents?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...(page.body.agents as Row[]).map((a) => a.id));
      cursor = page.body.next_cursor as string | null;
    } while (cursor);
    expect(paged).toEqual(ids);
  });

  describe('a forged cursor is the caller’s 400, never a 500', () => {
    const when = '2026-03-01T00:00:00.000Z';
    const forged: [string, string][] = [
      ['garbage', 'not%20a%20cursor!'],
      ['base64 of text', Buffer.from('hello').toString('base64url')],
      ['base64 of an object', forge({ at: when, id: randomUUID() })],
      ['base64 of a short array', forge([when])],
      ['a number for the time', forge([1_700_000_000_000, randomUUID()])],
      ['an impossible date', forge(['2026-02-30T00:00:00.000Z', randomUUID()])],
      ['a date before PostgreSQL’s range', forge(['-200000-01-01T00:00:00.000Z', randomUUID()])],
      ['a date in another format', forge(['March 1, 2026', randomUUID()])],
      ['a non-UUID id', forge([when, 'not-a-uuid'])],
      ['a number for the id', forge([when, 42])],
    ];
    const routes = ['/v1/events', '/v1/sessions', `/v1/sessions/${session}/events`];

    it.each(forged)('refuses %s on every UUID-keyed list', async (_, cursor) => {
      for (const route of routes) {
        expect({ route, answer: await api(`${route}?cursor=${cursor}`) }).toMatchObject({
          route,
          answer: { status: 400, body: { error: 'Invalid cursor' } },
        });
      }
    });

    it('refuses forged cursors on the agents list, whose ids are text', async () => {
      for (const cursor of [
        'not%20a%20cursor!',
        forge({ at: when }),
        forge(['-200000-01-01T00:00:00.000Z', 'agent-0']),
        forge([when, 'agent\u0000zero']),
        forge([when, 'x'.repeat(769)]),
      ]) {
        expect(await api(`/v1/agents?cursor=${cursor}`)).toMatchObject({
          status: 400,
          body: { error: 'Invalid cursor' },
        });
      }
      expect((await api(`/v1/agents?cursor=${forge([when, 'agent-0'])}`)).status).toBe(200);
    });

    it('refuses a repeated cursor parameter, and documents the answer', async () => {
      const real = (await api(`/v1/sessions/${session}/events?limit=1`)).body.next_cursor as string;
      expect(await api(`/v1/sessions/${session}/events?cursor=${real}&cursor=${real}`)).toMatchObject({
        status: 400,
        body: { error: 'Invalid cursor' },
      });
      const openapi = (await call(`${stack.apiUrl}/openapi.json`)).body as {
        paths: Record<string, { get: { description: string } }>;
      };
      for (const path of ['/v1/events', '/v1/sessions', '/v1/sessions/{id}/events', '/v1/agents']) {
        expect(openapi.paths[path].get.description).toContain('{"error":"Invalid cursor"}');
      }
    });
  });
});
