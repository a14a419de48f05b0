import { TenantData } from '@agentwatch/cells';
import { ACTION_TYPES, DECISIONS, isoDateTime, storableText, TEXT_LIMITS, uuid } from '@agentwatch/contracts';
import { badRequest } from '@agentwatch/http';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { toPage } from '../shared/pagination';
import { readQuery, riskParam } from '../shared/query-params';
import { SqlFilter } from '../shared/sql-filter';
import { EVENT_COLUMNS, EVENTS_WITH_SCORES, EventPage, EventRow, toEventView } from './event-view';

export const eventFilters = z.object({
  // The ingest domain: a value no event can hold (a NUL, say) is a 400, not a query Postgres refuses.
  agent_id: storableText(TEXT_LIMITS.agentId).optional(),
  session_id: uuid.optional(),
  action_type: z.enum(ACTION_TYPES).optional(),
  tool_name: storableText(TEXT_LIMITS.toolName).optional(),
  min_risk: riskParam.optional(),
  max_risk: riskParam.optional(),
  since: isoDateTime.optional(),
  end_time: isoDateTime.optional(),
  decision: z.enum(DECISIONS).optional(),
});

/** GET /v1/events: the events read model, newest first, filtered and paged by the raw query string. */
export class ListEvents extends Query<EventPage> {
  constructor(
    readonly orgId: string,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(ListEvents)
export class ListEventsHandler implements IQueryHandler<ListEvents> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, query }: ListEvents) {
    const { page, ...f } = readQuery(eventFilters, query);
    if (f.min_risk !== undefined && f.max_risk !== undefined && f.min_risk > f.max_risk) {
      throw badRequest('min_risk must not exceed max_risk');
    }
    const filter = new SqlFilter(orgId, 'e.org_id')
      .where((p) => `e.agent_id = ${p(f.agent_id)}`, f.agent_id, true)
      .where((p) => `e.session_id = ${p(f.session_id)}`, f.session_id, true)
      .where((p) => `e.action_type = ${p(f.action_type)}`, f.action_type, true)
      .where((p) => `e.tool_name = ${p(f.tool_name)}`, f.tool_name, true)
      .where((p) => `s.score >= ${p(f.min_risk)}`, f.min_risk, true)
      .where((p) => `s.score <= ${p(f.max_risk)}`, f.max_risk, true)
      .where((p) => `e."timestamp" >= ${p(f.since)}`, f.since, true)
      .where((p) => `e."timestamp" <= ${p(f.end_time)}`, f.end_time, true)
      .where((p) => `e.decision = ${p(f.decision)}`, f.decision, true)
      .where(
        (p) => `(e."timestamp", e.id) < (${p(page.after?.at)}::timestamptz, ${p(page.after?.id)}::uuid)`,
        page.after ?? undefined,
        true,
      );
    return this.db.run(orgId, async (q) => {
      const rows: EventRow[] = await q.query(
        `SELECT ${EVENT_COLUMNS} FROM ${EVENTS_WITH_SCORES} WHERE ${filter.sql}
          ORDER BY e."timestamp" DESC, e.id DESC LIMIT ${filter.placeholder(page.limit + 1)}`,
        filter.params,
      );
      const { items, next_cursor } = toPage(rows, page.limit, (r) => ({ at: r.timestamp, id: r.id }));
      return { events: items.map(toEventView), next_cursor };
    });
  }
}
