import { TenantData } from '@agentwatch/cells';
import { notFound } from '@agentwatch/http';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { SESSION_COLUMNS, SessionChildren, SessionRow, toSessionView } from './session-view';

/** GET /v1/sessions/{id}/children: oldest first; an unknown parent is a 404, not an empty list. */
export class ListSessionChildren extends Query<SessionChildren> {
  constructor(
    readonly orgId: string,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(ListSessionChildren)
export class ListSessionChildrenHandler implements IQueryHandler<ListSessionChildren> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, id }: ListSessionChildren): Promise<SessionChildren> {
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
