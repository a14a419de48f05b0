import { TenantData } from '@agentwatch/cells';
import { isoDateTime, SESSION_STATES, storableText, TEXT_LIMITS, uuid } from '@agentwatch/contracts';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { toPage } from '../shared/pagination';
import { booleanParam, readQuery } from '../shared/query-params';
import { SqlFilter } from '../shared/sql-filter';
import { SESSION_COLUMNS, SessionPage, SessionRow, toSessionView } from './session-view';

export const sessionFilters = z.object({
  state: z.enum(SESSION_STATES).optional(),
  platform: storableText(TEXT_LIMITS.platform).optional(),
  parent_id: uuid.optional(),
  root_only: booleanParam.optional(),
  since: isoDateTime.optional(),
  end_time: isoDateTime.optional(),
});

/** GET /v1/sessions: the sessions read model, newest first, filtered and paged by the raw query string. */
export class ListSessions extends Query<SessionPage> {
  constructor(
    readonly orgId: string,
    readonly query: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(ListSessions)
export class ListSessionsHandler implements IQueryHandler<ListSessions> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, query }: ListSessions) {
    const { page, ...f } = readQuery(sessionFilters, query);
    const filter = new SqlFilter(orgId)
      .where((p) => `state = ${p(f.state)}`, f.state, true)
      .where((p) => `platform = ${p(f.platform)}`, f.platform, true)
      .where((p) => `parent_id = ${p(f.parent_id)}`, f.parent_id, true)
      .where(() => 'parent_id IS NULL', f.root_only ? true : undefined, true)
      .where((p) => `started_at >= ${p(f.since)}`, f.since, true)
      .where((p) => `started_at <= ${p(f.end_time)}`, f.end_time, true)
      .where(
        (p) => `(started_at, id) < (${p(page.after?.at)}::timestamptz, ${p(page.after?.id)}::uuid)`,
        page.after ?? undefined,
        true,
      );
    return this.db.run(orgId, async (q) => {
      const rows: SessionRow[] = await q.query(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${filter.sql} ORDER BY started_at DESC, id DESC LIMIT ${filter.placeholder(page.limit + 1)}`,
        filter.params,
      );
      const { items, next_cursor } = toPage(rows, page.limit, (r) => ({ at: r.started_at, id: r.id }));
      return { sessions: items.map(toSessionView), next_cursor };
    });
  }
}
