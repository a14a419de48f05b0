import { TenantData } from '@agentwatch/cells';
import { EventRow, eventDetail, eventPage, eventView, toEventView } from './event-view';
import { GetEvent, GetEventHandler } from './get-event';
import { ListEvents, ListEventsHandler } from './list-events';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const row: EventRow = {
  id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
  session_id: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  agent_id: 'claude-code',
  action_type: 'FILE_READ',
  tool_name: 'Read',
  arguments: ['/etc/hosts'],
  risk_score: 42,
  decision: 'allow',
  timestamp: new Date('2026-10-01T08:00:00.000Z'),
};

/** Data whose queries answer these row sets, one per query in order. */
const answering = (...results: unknown[][]) => {
  const query = jest.fn();
  for (const rows of results) query.mockResolvedValueOnce(rows);
  return { run: (_orgId: string, work: (q: unknown) => unknown) => work({ query }) } as unknown as TenantData;
};

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('the documented event answers', () => {
  it('an event as stored reads as the event view, scored or not, with or without session and agent', () => {
    const unscored = { ...row, risk_score: null, session_id: null, agent_id: null, tool_name: null, arguments: [] };
    for (const view of [toEventView(row), toEventView(unscored)]) expect(eventView.parse(view)).toEqual(view);
  });

  it('GET /v1/events/{id}', async () => {
    const stored = { ...row, received_at: new Date('2026-10-01T08:00:01.000Z'), scored_at: null, machine_id: null };
    const detail = await new GetEventHandler(answering([stored])).execute(new GetEvent(ORG, row.id));
    expect(eventDetail.parse(detail)).toEqual(detail);
  });

  it('GET /v1/events, a page with a cursor to the next', async () => {
    const next = { ...row, id: '0192a3b4-c5d6-7e8f-9a0b-000000000002' };
    const page = await new ListEventsHandler(answering([row, next])).execute(new ListEvents(ORG, { limit: '1' }));
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(eventPage.parse(page)).toEqual(page);
  });
});
