import { TenantData } from '@agentwatch/cells';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { justify, ScoredResult } from '../domain/justification';
import { badRequest, notFound } from '../http/api-errors';
import { readScoreDetail } from './score-detail';

/** GET /justification?event_id=…: the scored event's report, mapped to compliance frameworks. */
export class GetJustification extends Query<ReturnType<typeof justify>> {
  constructor(
    readonly orgId: string,
    readonly eventId: string | undefined,
  ) {
    super();
  }
}

@QueryHandler(GetJustification)
export class GetJustificationHandler implements IQueryHandler<GetJustification> {
  constructor(private readonly db: TenantData) {}

  async execute({ orgId, eventId }: GetJustification) {
    if (!eventId) throw badRequest('event_id query parameter required');
    const detail = await readScoreDetail(this.db, orgId, eventId);
    if (detail.status !== 'scored') throw notFound(`No justification: the event's score is ${detail.status}`);
    return justify(detail as ScoredResult);
  }
}
