import { isoDateTime, SESSION_STATES, storableText, TEXT_LIMITS, uuid } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { toPage } from '../shared/pagination';
import { booleanParam, readQuery } from '../shared/query-params';
import { SqlFilter } from '../shared/sql-filter';
import { SESSION_COLUMNS, SessionRow, SessionView, toSessionView } from './session-view';

export const sessionFilters = z.object({
  state: z.enum(SESSION_STATES).optional(),
  platform: storableText(TEXT_LIMITS.platform).optional(),
  parent_id: uuid.optional(),
  root_only: booleanParam.optional(),
  since: isoDateTime.optional(),
  end_time: isoDateTime.optional(),
});

export interface RiskSummary {
  total_events: number;
  max_risk: number;
  avg_risk: number;
}

/** Read routes over the sessions read model, newest first. */
@Injectable()
export class SessionQueries {
  constructor(private readonly db: OrgScope) {}

  list(
    orgId: string,
    query: Record<string, unknown>,
  ): Promise<{ sessions: SessionView[]; next_cursor: string | null }> {
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

  get(orgId: string, id: string): Promise<SessionView & { children: SessionView[]; risk_summary: RiskSummary }> {
    return this.db.run(orgId, async (q) => {
      const [row]: SessionRow[] = await q.query(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE org_id = $1 AND id = $2`,
        [orgId, id],
      );
      if (!row) throw notFound('Session');
      const children: SessionRow[] = await q.query(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE org_id = $1 AND parent_id = $2 ORDER BY started_at, id`,
        [orgId, id],
      );
      const [risk] = await q.query(
        `SELECT count(*)::int AS total_events, COALESCE(max(risk_score), 0)::int AS max_risk,
                COALESCE(round(avg(risk_score), 2), 0)::float8 AS avg_risk
           FROM events WHERE org_id = $1 AND session_id = $2`,
        [orgId, id],
      );
      return { ...toSessionView(row), children: children.map(toSessionView), risk_summary: risk };
    });
  }

  children(orgId: string, id: string): Promise<{ children: SessionView[] }> {
    return this.db.run(orgId, async (q) => {
      const [parent] = await q.query('SELECT 1 FROM sessions WHERE org_id = $1 AND id = $2', [orgId, id]);
      if (!parent) throw notFound('Session');
      const rows: SessionRow[] = await q.query(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE org_id = $1 AND parent_id = $2 ORDER BY started_at, id`,
        [orgId, id],
      );
      return { children: rows.map(toSessionView) };
    });
  }
}
