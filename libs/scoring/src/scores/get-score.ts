import { TenantData } from '@agentwatch/cells';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { readScoreDetail } from './score-detail';

/** GET /scores/event/{event_id}: the score detail of one event, `pending` until the worker scored it. */
export class GetScore extends Query<Awaited<ReturnType<typeof readScoreDetail>>> {
  constructor(
    readonly orgId: string,
    readonly eventId: string,
  ) {
    super();
  }
}

@QueryHandler(GetScore)
export class GetScoreHandler implements IQueryHandler<GetScore> {
  constructor(private readonly db: TenantData) {}

  execute({ orgId, eventId }: GetScore) {
    return readScoreDetail(this.db, orgId, eventId);
  }
}
