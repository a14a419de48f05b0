import { OrgScope } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { Injectable } from '@nestjs/common';
import { EVENT_COLUMNS, EventRow, EventView, toEventView } from '../events/event-view';
import { PageRequest, toPage } from '../shared/pagination';

export interface SessionEventsPage {
  events: EventView[];
  next_cursor: string | null;
}

/** GET /v1/sessions/{id}/events: the session's events in timestamp order, keyset-paginated. */
@Injectable()
export class ListSessionEvents {
  constructor(private readonly db: OrgScope) {}

  execute(orgId: string, sessionId: string, page: PageRequest): Promise<SessionEventsPage> {
    return this.db.run(orgId, async (q) => {
      const rows: EventRow[] = await q.query(
        `SELECT ${EVENT_COLUMNS} FROM events
          WHERE org_id = $1 AND session_id = $2
            AND ($3::timestamptz IS NULL OR ("timestamp", id) > ($3::timestamptz, $4::uuid))
          ORDER BY "timestamp", id
          LIMIT $5`,
        [orgId, sessionId, page.after?.at ?? null, page.after?.id ?? null, page.limit + 1],
      );
      if (rows.length === 0 && page.after === null) {
        const [session] = await q.query('SELECT 1 FROM sessions WHERE org_id = $1 AND id = $2', [orgId, sessionId]);
        if (!session) throw notFound('Session');
      }
      const { items, next_cursor } = toPage(rows, page.limit, (row) => ({
        at: row.timestamp.toISOString(),
        id: row.id,
      }));
      return { events: items.map(toEventView), next_cursor };
    });
  }
}
