import { TenantData } from '@agentwatch/cells';
import { EventRow, eventPage } from '../events/event-view';
import { ListStreamer } from '../shared/streamed-list';
import { GetSession, GetSessionHandler } from './get-session';
import { ListSessionChildren, ListSessionChildrenHandler } from './list-session-children';
import { ListSessionEvents, ListSessionEventsHandler } from './list-session-events';
import { ListSessions, ListSessionsHandler } from './list-sessions';
import { SessionRow, sessionChildren, sessionDetail, sessionPage, sessionView, toSessionView } from './session-view';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const root: SessionRow = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  session_name: 'refactor auth',
  model: 'claude-opus',
  signing_id: 'com.anthropic.claude',
  state: 'ended',
  platform: 'claude-code',
  parent_id: null,
  started_at: new Date('2026-10-01T08:01:00.000Z'),
  ended_at: new Date('2026-10-01T08:07:00.000Z'),
  last_seen_at: new Date('2026-10-01T08:08:00.000Z'),
};
// Known from events only: no lifecycle record gave it a name, a model or an end.
const child: SessionRow = {
  ...root,
  id: '7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  session_name: null,
  model: null,
  signing_id: null,
  state: 'active',
  platform: null,
  parent_id: root.id,
  ended_at: null,
};

/** Data whose queries answer these row sets, one per query in order. */
const answering = (...results: unknown[][]) => {
  const query = jest.fn();
  for (const rows of results) query.mockResolvedValueOnce(rows);
  return { run: (_orgId: string, work: (q: unknown) => unknown) => work({ query }) } as unknown as TenantData;
};

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('the documented session answers', () => {
  it('a session as stored reads as the session view, ended or known from events only', () => {
    for (const view of [toSessionView(root), toSessionView(child)]) expect(sessionView.parse(view)).toEqual(view);
  });

  it('GET /v1/sessions/{id}', async () => {
    const risk = { total_events: 3, max_risk: 80, avg_risk: 41.33 };
    const detail = await new GetSessionHandler(answering([root], [child], [risk])).execute(
      new GetSession(ORG, root.id),
    );
    expect(sessionDetail.parse(detail)).toEqual(detail);
  });

  it('GET /v1/sessions/{id}/children', async () => {
    const answer = await new ListSessionChildrenHandler(answering([{ '?column?': 1 }], [child])).execute(
      new ListSessionChildren(ORG, root.id),
    );
    expect(sessionChildren.parse(answer)).toEqual(answer);
  });

  it('GET /v1/sessions, a page with a cursor to the next', async () => {
    const page = await new ListSessionsHandler(answering([root, child])).execute(new ListSessions(ORG, { limit: '1' }));
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(sessionPage.parse(page)).toEqual(page);
  });

  it('GET /v1/sessions/{id}/events?limit=, a page of the session', async () => {
    const event: EventRow = {
      id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
      session_id: root.id,
      agent_id: null,
      action_type: 'PROCESS_EXEC',
      tool_name: 'git',
      arguments: ['status'],
      risk_score: null,
      decision: 'block',
      timestamp: new Date('2026-10-01T08:02:00.000Z'),
    };
    const handler = new ListSessionEventsHandler(answering([event]), {} as ListStreamer);
    const page = await handler.execute(new ListSessionEvents(ORG, root.id, { limit: '10' }));
    expect(eventPage.parse(page)).toEqual(page);
  });
});
