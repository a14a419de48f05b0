import { TenantData } from '@agentwatch/cells';
import { notFound } from '@agentwatch/http';
import { prepared } from '@agentwatch/kafka';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { EVENT_COLUMNS, EVENTS_WITH_SCORES, EventDetail, toEventView } from './event-view';

/** GET /v1/events/{id}: one event of the caller's organization. */
export class GetEvent extends Query<EventDetail> {
  constructor(
    readonly orgId: string,
    readonly id: string,
  ) {
    super();
  }
}

// A named statement (see list-session-events.ts): the walk of the primary key.
const EVENT = prepared(
  `SELECT ${EVENT_COLUMNS}, e.received_at, s.scored_at, e.machine_id FROM ${EVENTS_WITH_SCORES}
    WHERE e.org_id = $1 AND e.id = $2`,
);

@QueryHandler(GetEvent)
export class GetEventHandler implements IQueryHandler<GetEvent> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, id }: GetEvent): Promise<EventDetail> {
    return this.db.run(orgId, async (q) => {
      const [row] = await q.query(EVENT, [orgId, id]);
      if (!row) throw notFound('Event');
      return {
        ...toEventView(row),
        machine_id: row.machine_id,
        received_at: row.received_at.toISOString(),
        scored_at: row.scored_at?.toISOString() ?? null,
      };
    });
  }
}
