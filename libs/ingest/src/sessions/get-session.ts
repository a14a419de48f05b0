import { TenantData } from '@agentwatch/cells';
import { notFound } from '@agentwatch/http';
import { prepared } from '@agentwatch/kafka';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { EVENTS_WITH_SCORES } from '../events/event-view';
import { SESSION_COLUMNS, SessionDetail, SessionRow, toSessionView } from './session-view';

// Named statements (see list-session-events.ts): each walks one key's index.
const SESSION = prepared(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE org_id = $1 AND id = $2`);
const CHILDREN = prepared(
  `SELECT ${SESSION_COLUMNS} FROM sessions WHERE org_id = $1 AND parent_id = $2 ORDER BY started_at, id`,
);
const RISK_SUMMARY = prepared(
  `SELECT count(*)::int AS total_events, COALESCE(max(s.score), 0)::int AS max_risk,
          COALESCE(round(avg(s.score), 2), 0)::float8 AS avg_risk
     FROM ${EVENTS_WITH_SCORES} WHERE e.org_id = $1 AND e.session_id = $2`,
);

/** GET /v1/sessions/{id}: one session with its children and the risk summary of its events. */
export class GetSession extends Query<SessionDetail> {
  constructor(
    readonly orgId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetSession)
export class GetSessionHandler implements IQueryHandler<GetSession> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, id }: GetSession): Promise<SessionDetail> {
    return this.db.run(orgId, async (q) => {
      const [row]: SessionRow[] = await q.query(SESSION, [orgId, id]);
      if (!row) throw notFound('Session');
      const children: SessionRow[] = await q.query(CHILDREN, [orgId, id]);
      const [risk] = await q.query(RISK_SUMMARY, [orgId, id]);
      return { ...toSessionView(row), children: children.map(toSessionView), risk_summary: risk };
    });
  }
}
