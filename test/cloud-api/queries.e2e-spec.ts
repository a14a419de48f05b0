import { randomUUID } from 'node:crypto';
import { call, createOrganization, eventually, RunningStack, startStack, TestOrganization } from '@agentwatch/testing';

type Row = Record<string, unknown>;
const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 8, minute)).toISOString();

describe('cloud API queries over the read models (route by route)', () => {
  let stack: RunningStack;
  let a: TestOrganization;
  let b: TestOrganization;

  const api = (path: string, token = a.token, options: Parameters<typeof call>[1] = {}) =>
    call(`${stack.apiUrl}${path}`, { token, ...options });
  const post = (path: string, body: unknown, token = a.token) => api(path, token, { method: 'POST', body });
  const until = (path: string, accept: (body: Row) => boolean, token = a.token) =>
    eventually(
      () => api(path, token),
      (r) => r.status === 200 && accept(r.body),
      { what: path },
    );
  const ids = (rows: unknown) => (rows as Row[]).map((r) => r.id);

  beforeAll(async () => {
    stack = await startStack('e2e-queries');
    [a, b] = await Promise.all([
      createOrganization('queries A', stack.env),
      createOrganization('queries B', stack.env),
    ]);
  });

  afterAll(() => stack?.stop());

  describe('sessions', () => {
    const root = randomUUID();
    const childOne = randomUUID();
    const childTwo = randomUUID();
    const platform = `claude-code-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      const flat = (state: string, minute: number, extra: Row = {}) =>
        post('/v1/sessions/ingest', { session_id: root, state, timestamp: at(minute), ...extra });
      expect(
        await flat('active', 1, {
          session_name: 'refactor auth',
          model: 'claude-opus',
          signing_id: 'com.anthropic.claude',
          platform,
          parent_id: null,
        }),
      ).toMatchObject({
        status: 200,
        body: { ok: true },
      });
      const wrapper = await post('/v1/sessions/ingest', {
        events: [
          {
            event_type: 'session_start',
            session_id: childOne,
            platform,
            started_at: at(2),
            action_count: 3,
            message_count: 9,
            parent_id: root,
          },
          { event_type: 'session_end', session_id: childOne, ended_at: at(9) },
        ],
      });
      expect(wrapper).toMatchObject({ status: 200, body: { ok: true, ingested: 2 } });
      await post('/v1/sessions/ingest', {
        session_id: childTwo,
        state: 'idle',
        timestamp: at(3),
        platform,
        parent_id: root,
      });
      // Out of order: idle at :05 arrives before a late, older active at :04; then ended at :07 is final.
      await flat('idle', 5);
      await flat('active', 4);
      await flat('ended', 7);
      await flat('active', 8);
      await post('/v1/events/ingest', {
        events: [
          {
            action_type: 'PROCESS_EXEC',
            timestamp: at(2),
            session_id: root,
            agent_id: `agent-${root}`,
            tool_name: 'git',
          },
          {
            action_type: 'FILE_WRITE',
            timestamp: at(6),
            session_id: root,
            agent_id: `agent-${root}`,
            tool_name: 'sed',
            decision: 'warn',
          },
        ],
      });
    });

    it('applies lifecycle records in timestamp order: an older record never regresses, ended is final', async () => {
      const session = await until(
        `/v1/sessions/${root}`,
        (s) => s.state === 'ended' && (s.risk_summary as Row)?.total_events === 2,
      );
      expect(session.body).toMatchObject({
        id: root,
        session_name: 'refactor auth',
        model: 'claude-opus',
        signing_id: 'com.anthropic.claude',
        platform,
        parent_id: null,
        state: 'ended',
        started_at: at(1),
        ended_at: at(7),
        risk_summary: { total_events: 2, max_risk: 0, avg_risk: 0 },
      });
      expect(ids(session.body.children)).toEqual([childOne, childTwo]);
    });

    it('lists children, and maps the wrapper shape onto the same records', async () => {
      const children = await until(
        `/v1/sessions/${root}/children`,
        (body) => (body.children as Row[]).length === 2 && (body.children as Row[])[0].state === 'ended',
      );
      const [one, two] = children.body.children as Row[];
      expect(one).toMatchObject({
        id: childOne,
        state: 'ended',
        started_at: at(2),
        ended_at: at(9),
        parent_id: root,
        platform,
      });
      expect(two).toMatchObject({ id: childTwo, state: 'idle', ended_at: null, parent_id: root });
      expect(Object.keys(one)).toEqual(
        expect.arrayContaining([
          'id',
          'session_name',
          'model',
          'state',
          'platform',
          'parent_id',
          'started_at',
          'ended_at',
        ]),
      );
    });

    it('filters the session list by state, platform, parent_id, root_only, since and end_time', async () => {
      await until(`/v1/sessions?platform=${platform}`, (body) => (body.sessions as Row[]).length === 3);
      const list = async (query: string) =>
        ids((await api(`/v1/sessions?platform=${platform}&${query}`)).body.sessions);
      expect(await list('root_only=true')).toEqual([root]);
      expect(new Set(await list(`parent_id=${root}`))).toEqual(new Set([childOne, childTwo]));
      expect(new Set(await list('state=ended'))).toEqual(new Set([root, childOne]));
      expect(await list('state=idle')).toEqual([childTwo]);
      expect(await list(`since=${at(2)}&end_time=${at(2)}`)).toEqual([childOne]);
      expect(await list(`since=${at(2)}`)).toEqual([childTwo, childOne]);
      expect((await api('/v1/sessions?state=paused')).status).toBe(400);
      expect((await api('/v1/sessions?root_only=yes')).status).toBe(400);
    });

    it('knows a session from its events alone, as active', async () => {
      const implicit = randomUUID();
      await post('/v1/events/ingest', {
        events: [{ action_type: 'FILE_READ', timestamp: at(30), session_id: implicit }],
      });
      const session = await until(`/v1/sessions/${implicit}`, () => true);
      expect(session.body).toMatchObject({
        id: implicit,
        state: 'active',
        started_at: at(30),
        ended_at: null,
        parent_id: null,
      });
    });

    it('reads agents with the platform and signing id of their latest session', async () => {
      const agents = await until('/v1/agents', (body) => (body.agents as Row[]).some((x) => x.id === `agent-${root}`));
      expect((agents.body.agents as Row[]).find((x) => x.id === `agent-${root}`)).toEqual({
        id: `agent-${root}`,
        platform,
        signing_id: 'com.anthropic.claude',
        first_seen: at(2),
        last_seen: at(6),
      });
    });

    it('pages through a multi-page session list to the end', async () => {
      const paging = `paging-${randomUUID().slice(0, 8)}`;
      const sessions = Array.from({ length: 7 }, () => randomUUID());
      for (const [i, id] of sessions.entries()) {
        await post('/v1/sessions/ingest', {
          session_id: id,
          state: 'active',
          timestamp: at(10 + (i % 3)),
          platform: paging,
        });
      }
      await until(`/v1/sessions?platform=${paging}`, (body) => (body.sessions as Row[]).length === 7);
      const seen: unknown[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: Row } = await api(
          `/v1/sessions?platform=${paging}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        );
        pages.push((page.body.sessions as Row[]).length);
        seen.push(...(page.body.sessions as Row[]).map((s) => [s.started_at, s.id]));
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      expect(pages).toEqual([3, 3, 1]);
      expect(new Set(seen.map((s) => (s as string[])[1]))).toEqual(new Set(sessions));
      const order = seen.map((s) => (s as string[]).join(' '));
      expect(order).toEqual([...order].sort().reverse());
    });

    it('refuses a flat record without its required fields, and a wrapper item without a time', async () => {
      const flat = await post('/v1/sessions/ingest', { session_id: randomUUID(), state: 'active' });
      expect(flat).toMatchObject({
        status: 400,
        body: { error: 'Invalid request body', details: [{ path: 'timestamp' }] },
      });
      const wrapper = await post('/v1/sessions/ingest', {
        events: [{ event_type: 'session_end', session_id: randomUUID() }],
      });
      expect(wrapper).toMatchObject({ status: 400, body: { details: [{ index: 0, path: 'timestamp' }] } });
    });
  });

  describe('events', () => {
    const session = randomUUID();
    const agent = `agent-${session}`;
    let eventIds: string[] = [];

    beforeAll(async () => {
      const events = Array.from({ length: 25 }, (_, i) => ({
        event_id: `${session}-${i}`,
        action_type: (['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'] as const)[i % 5],
        timestamp: at(i),
        tool_name: `tool-${i % 3}`,
        arguments: [`/work/${i}`],
        session_id: session,
        agent_id: i < 20 ? agent : 'other-agent',
        decision: i % 10 === 0 ? 'block' : 'allow',
      }));
      expect((await post('/v1/events/ingest', { events })).body).toEqual({ ingested: 25 });
      const all = await until(
        `/v1/events?session_id=${session}&limit=1000`,
        (body) => (body.events as Row[]).length === 25,
      );
      eventIds = ids(all.body.events) as string[];
    });

    it('lists newest first and pages to the end of a multi-page result', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { body: Row } = await api(
          `/v1/events?session_id=${session}&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...ids(page.body.events));
        cursor = page.body.next_cursor as string | null;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(eventIds);
      const first = (await api(`/v1/events?session_id=${session}&limit=1`)).body.events as Row[];
      expect(first[0]).toMatchObject({ timestamp: at(24), session_id: session, risk_score: null });
    });

    it.each([
      ['agent_id', (q: string) => `agent_id=${q}`, 20],
      ['action_type', () => 'action_type=FILE_DELETE', 5],
      ['tool_name', () => 'tool_name=tool-1', 8],
      ['decision', () => 'decision=block', 3],
      ['since and end_time (inclusive)', () => `since=${at(5)}&end_time=${at(9)}`, 5],
      ['min_risk (unscored events never match)', () => 'min_risk=0', 0],
      ['max_risk', () => 'max_risk=100', 0],
    ])('filters by %s', async (_, query, expected) => {
      const answer = await api(`/v1/events?session_id=${session}&${query(agent)}`);
      expect(answer.status).toBe(200);
      expect(answer.body.events).toHaveLength(expected);
    });

    it('refuses invalid filters with 400', async () => {
      for (const query of [
        'action_type=FILE_EXEC',
        'min_risk=101',
        'min_risk=-1',
        'min_risk=60&max_risk=40',
        'since=yesterday',
        'decision=maybe',
        'limit=0',
        'cursor=garbage',
      ]) {
        expect({ query, status: (await api(`/v1/events?${query}`)).status }).toEqual({ query, status: 400 });
      }
    });

    it('reads one event, and 404 / 400 for an unknown or malformed id', async () => {
      const one = await api(`/v1/events/${eventIds[0]}`);
      expect(one.body).toMatchObject({
        id: eventIds[0],
        session_id: session,
        timestamp: at(24),
        received_at: expect.any(String),
        scored_at: null,
      });
      expect(await api(`/v1/events/${randomUUID()}`)).toMatchObject({
        status: 404,
        body: { error: 'Event not found' },
      });
      expect(await api('/v1/events/123')).toMatchObject({ status: 400 });
    });
  });

  describe('stats', () => {
    it('aggregates the last 24 hours of the caller', async () => {
      const c = await createOrganization('stats org', stack.env);
      const ago = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
      const session = randomUUID();
      await post(
        '/v1/events/ingest',
        {
          events: [
            { action_type: 'FILE_READ', timestamp: ago(1), tool_name: 'cat', session_id: session },
            { action_type: 'FILE_READ', timestamp: ago(2), tool_name: 'cat', session_id: session, decision: 'block' },
            { action_type: 'NETWORK_CONNECT', timestamp: ago(2), tool_name: 'curl', session_id: session },
            { action_type: 'FILE_DELETE', timestamp: ago(30), tool_name: 'rm', session_id: session },
          ],
        },
        c.token,
      );
      await until(`/v1/sessions/${session}/events`, (body) => (body.events as Row[]).length === 4, c.token);
      const stats = (await api('/v1/events/stats', c.token)).body;
      expect(stats).toMatchObject({
        total: 3,
        by_action_type: { FILE_READ: 2, NETWORK_CONNECT: 1 },
        by_decision: { allow: 2, block: 1 },
        by_risk_level: { none: 0, low: 0, medium: 0, high: 0, critical: 0, unscored: 3 },
        top_tools: [
          { tool_name: 'cat', count: 2 },
          { tool_name: 'curl', count: 1 },
        ],
        projection_lag: { events: { records_behind: expect.any(Number) } },
      });
      expect((stats.hourly as Row[]).reduce((sum, h) => sum + (h.count as number), 0)).toBe(3);
      // Whole UTC hours: the current one and the 23 before it.
      const window = stats.window as { since: string; until: string };
      expect(Date.parse(window.until) - Date.parse(window.since)).toBe(24 * 3600_000);
      expect(window.until).toMatch(/T\d\d:00:00\.000Z$/);
      expect(Date.parse(window.until)).toBeGreaterThan(Date.now() - 60_000);
    });
  });

  describe('POST /v1/ingest (mixed daemon items)', () => {
    it('takes events, the development event shape and both session shapes in one batch', async () => {
      const session = randomUUID();
      const answer = await post('/v1/ingest', {
        events: [
          { event_type: 'session_start', session_id: session, started_at: at(40), platform: 'cursor' },
          {
            event_id: `dev-${session}`,
            action: 'file_read',
            agent: 'cursor-agent',
            blocked: true,
            timestamp: at(41),
            metadata: { tool: 'cat', path: '/etc/shadow', session_id: session },
          },
          { action_type: 'PROCESS_EXEC', timestamp: at(42), session_id: session, tool_name: 'npm' },
          { session_id: session, state: 'idle', timestamp: at(43) },
        ],
      });
      expect(answer).toMatchObject({ status: 200, body: { ingested: 4, events: 2, sessions: 2 } });
      const events = await until(`/v1/sessions/${session}/events`, (body) => (body.events as Row[]).length === 2);
      expect((events.body.events as Row[])[0]).toMatchObject({
        action_type: 'FILE_READ',
        tool_name: 'cat',
        arguments: ['/etc/shadow'],
        agent_id: 'cursor-agent',
        decision: 'block',
      });
      expect((await until(`/v1/sessions/${session}`, (s) => s.state === 'idle')).body).toMatchObject({
        platform: 'cursor',
        started_at: at(40),
      });
    });

    it('refuses the whole batch for one unreadable item', async () => {
      const answer = await post('/v1/ingest', {
        events: [{ action_type: 'FILE_READ', timestamp: at(1) }, { action: 'teleport' }, { hello: 1 }],
      });
      expect(answer.status).toBe(400);
      expect((answer.body.details as Row[]).map((d) => [d.index, d.path])).toEqual([
        [1, 'action'],
        [2, ''],
      ]);
    });
  });

  describe('isolation between organizations', () => {
    it("answers 404 or an empty list for every read of another organization's data", async () => {
      const session = randomUUID();
      await post('/v1/sessions/ingest', { session_id: session, state: 'active', timestamp: at(50), platform: 'iso' });
      await post('/v1/events/ingest', {
        events: [{ action_type: 'FILE_READ', timestamp: at(50), session_id: session, agent_id: `iso-${session}` }],
      });
      const [event] = (await until(`/v1/sessions/${session}/events`, (body) => (body.events as Row[]).length === 1))
        .body.events as Row[];
      await until('/v1/agents', (body) => (body.agents as Row[]).some((x) => x.id === `iso-${session}`));

      for (const path of [
        `/v1/sessions/${session}`,
        `/v1/sessions/${session}/children`,
        `/v1/sessions/${session}/events`,
        `/v1/events/${event.id}`,
      ]) {
        expect({ path, status: (await api(path, b.token)).status }).toEqual({ path, status: 404 });
      }
      expect(ids((await api('/v1/sessions?platform=iso', b.token)).body.sessions)).not.toContain(session);
      expect(ids((await api(`/v1/events?session_id=${session}`, b.token)).body.events)).toEqual([]);
      expect(ids((await api('/v1/agents?limit=1000', b.token)).body.agents)).not.toContain(`iso-${session}`);
    });
  });
});
