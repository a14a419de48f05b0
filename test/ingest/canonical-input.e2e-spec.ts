import { call, createOrganization, eventually, RunningStack, startStack, TestOrganization } from '@agentwatch/testing';
import { v4 as uuidv4 } from 'uuid';

/** The edge's canonical forms (docs/ingest-domain.md), through the real HTTP → Kafka → Postgres path. */
describe('ingest input in the forms every layer stores alike', () => {
  let stack: RunningStack;
  let org: TestOrganization;
  const at = '2026-11-01T12:00:00.000Z';

  beforeAll(async () => {
    stack = await startStack('e2e-canonical');
    org = await createOrganization('canonical', stack.env);
  });

  afterAll(() => stack?.stop());

  const post = (path: string, body: unknown) =>
    call<Record<string, unknown>>(`${stack.apiUrl}${path}`, { method: 'POST', token: org.token, body });
  const sessionEvents = (id: string) =>
    call<{ events: { id: string; tool_name: string | null }[] }>(`${stack.apiUrl}/v1/sessions/${id}/events`, {
      token: org.token,
    });

  it('counts every accepted item, and stores a repeated event_id of one batch once (the first)', async () => {
    const session = uuidv4();
    const item = (eventId: string, tool: string) => ({
      event_id: eventId,
      action_type: 'FILE_READ',
      timestamp: at,
      tool_name: tool,
      session_id: session,
    });
    const answer = await post('/v1/events/ingest', {
      events: [item('dup', 'first'), item('other', 'cat'), item('dup', 'second')],
    });
    expect(answer).toMatchObject({ status: 200, body: { ingested: 3 } });
    const stored = await eventually(
      () => sessionEvents(session),
      (page) => page.status === 200 && page.body.events.length >= 2,
      { what: 'the batch projected' },
    );
    expect(stored.body.events.map((e) => e.tool_name).sort()).toEqual(['cat', 'first']);
  });

  it('folds the spellings of one session id into one session', async () => {
    const session = uuidv4();
    await post('/v1/sessions/ingest', { session_id: session.toUpperCase(), state: 'active', timestamp: at });
    await post('/v1/events/ingest', {
      events: [{ action_type: 'FILE_READ', timestamp: at, session_id: session.toUpperCase() }],
    });
    await post('/v1/events/ingest', { events: [{ action_type: 'FILE_WRITE', timestamp: at, session_id: session }] });
    const stored = await eventually(
      () => sessionEvents(session),
      (page) => page.status === 200 && page.body.events.length >= 2,
      { what: 'both events under one session' },
    );
    expect(stored.body.events).toHaveLength(2);
    const detail = await call<{ id: string; state: string }>(`${stack.apiUrl}/v1/sessions/${session}`, {
      token: org.token,
    });
    expect(detail.body).toMatchObject({ id: session, state: 'active' });
  });

  it.each([
    [
      'a session that is its own parent',
      (id: string) => ({ session_id: id, state: 'active', timestamp: at, parent_id: id }),
      'parent_id',
    ],
    [
      'a NUL in a field',
      (id: string) => ({ session_id: id, state: 'active', timestamp: at, model: 'x\u0000' }),
      'model',
    ],
    ['year 0', (id: string) => ({ session_id: id, state: 'active', timestamp: '0000-01-01T00:00:00Z' }), 'timestamp'],
  ])('refuses %s with 400 naming the field', async (_, body, path) => {
    const answer = await post('/v1/sessions/ingest', body(uuidv4()));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'Invalid request body', details: [{ path }] });
  });
});
