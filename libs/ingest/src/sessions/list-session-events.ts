import { TenantData } from '@agentwatch/cells';
import { Queryable } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { prepared } from '@agentwatch/kafka';
import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { EVENT_COLUMNS, EVENTS_WITH_SCORES, EventPage, EventRow, toEventView } from '../events/event-view';
import { Cursor, PageRequest, pageRequest, toPage } from '../shared/pagination';
import { ListStreamer, StreamedList } from '../shared/streamed-list';

// Named statements, parsed and planned once per connection: polled while a session is live, this
// route paid Postgres more to plan its statements than to run them. Each plan is the walk of one
// key's index in its order, the plan a table of any size gets (docs/adr/0023-reads-in-fewer-round-trips.md).
const FIRST_EVENTS = prepared(
  `SELECT ${EVENT_COLUMNS} FROM ${EVENTS_WITH_SCORES}
    WHERE e.org_id = $1 AND e.session_id = $2
    ORDER BY e."timestamp", e.id
    LIMIT $3`,
);
const EVENTS_AFTER = prepared(
  `SELECT ${EVENT_COLUMNS} FROM ${EVENTS_WITH_SCORES}
    WHERE e.org_id = $1 AND e.session_id = $2 AND (e."timestamp", e.id) > ($3::timestamptz, $4::uuid)
    ORDER BY e."timestamp", e.id
    LIMIT $5`,
);
const SESSION_KNOWN = prepared('SELECT 1 FROM sessions WHERE org_id = $1 AND id = $2');

const eventsAfter = (orgId: string, sessionId: string) => (q: Queryable, after: Cursor | null, limit: number) =>
  (after === null
    ? q.query(FIRST_EVENTS, [orgId, sessionId, limit])
    : q.query(EVENTS_AFTER, [orgId, sessionId, after.at, after.id, limit])) as Promise<EventRow[]>;

async function assertSessionKnown(q: Queryable, orgId: string, sessionId: string): Promise<void> {
  const [session] = await q.query(SESSION_KNOWN, [orgId, sessionId]);
  if (!session) throw notFound('Session');
}

const cursorOf = (row: EventRow): Cursor => ({ at: row.timestamp, id: row.id });

/**
 * GET /v1/sessions/{id}/events: the session's events in timestamp order. With `limit` or `cursor`
 * one keyset page; without them the whole session, streamed (the spec answers the full list).
 */
export class ListSessionEvents extends Query<EventPage | StreamableFile> {
  constructor(
    readonly orgId: string,
    readonly sessionId: string,
    readonly query: { limit?: unknown; cursor?: unknown },
  ) {
    super();
  }
}

@QueryHandler(ListSessionEvents)
export class ListSessionEventsHandler implements IQueryHandler<ListSessionEvents> {
  constructor(
    private readonly db: TenantData,
    private readonly streamer: ListStreamer,
  ) {}

  execute({ orgId, sessionId, query }: ListSessionEvents) {
    if (query.limit === undefined && query.cursor === undefined) return this.all(orgId, sessionId);
    return this.page(orgId, sessionId, pageRequest(query));
  }

  private page(orgId: string, sessionId: string, page: PageRequest): Promise<EventPage> {
    return this.db.run(orgId, async (q) => {
      const rows = await eventsAfter(orgId, sessionId)(q, page.after, page.limit + 1);
      if (rows.length === 0 && page.after === null) await assertSessionKnown(q, orgId, sessionId);
      const { items, next_cursor } = toPage(rows, page.limit, cursorOf);
      return { events: items.map(toEventView), next_cursor };
    });
  }

  private all(orgId: string, sessionId: string): Promise<StreamableFile> {
    const list: StreamedList<EventRow> = {
      key: 'events',
      chunk: eventsAfter(orgId, sessionId),
      cursorOf,
      view: toEventView,
      whenEmpty: (q) => assertSessionKnown(q, orgId, sessionId),
    };
    return this.streamer.open(orgId, list);
  }
}
