import { ApiKeyAuthenticated, ApiKeyPrincipal, CurrentApiKey } from '@agentwatch/auth';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { justificationReport } from '../domain/justification';
import { GetJustification } from '../scores/get-justification';
import { GetScore } from '../scores/get-score';
import { DEFAULT_PER_PAGE, ListQuery, ListScores, MAX_PER_PAGE, scoreList } from '../scores/list-scores';
import { scoreDetail } from '../scores/score-detail';
import { ScoringAnswers } from './api-answers';

@ApiTags('scores')
@Controller()
export class ScoresController {
  constructor(private readonly queries: QueryBus) {}

  @Get('scores/event/:event_id')
  @ApiKeyAuthenticated()
  @ApiOperation({
    summary: 'Score detail of one event',
    description: '`status`: `pending` (received, not scored yet), `scored`, or `failed` (with `failure_reason`).',
  })
  @ScoringAnswers(200, 'Score detail', [400, 404], scoreDetail)
  detail(@CurrentApiKey() key: ApiKeyPrincipal, @Param('event_id') eventId: string) {
    return this.queries.execute(new GetScore(key.orgId, eventId));
  }

  @Get('scores/:customer_id')
  @ApiKeyAuthenticated()
  @ApiOperation({
    summary: 'Scored events of the customer, newest first (by scored_at)',
    description: `page defaults to 1; per_page to ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}. from_date (inclusive) bounds scored_at.`,
  })
  @ApiQuery({ name: 'page', required: false })
  @ApiQuery({ name: 'per_page', required: false })
  @ApiQuery({ name: 'risk_level', required: false, enum: ['none', 'low', 'medium', 'high', 'critical'] })
  @ApiQuery({ name: 'from_date', required: false })
  @ScoringAnswers(200, '`{scores, page, per_page, total}`', [400, 404], scoreList)
  list(@CurrentApiKey() key: ApiKeyPrincipal, @Param('customer_id') customerId: string, @Query() query: ListQuery) {
    return this.queries.execute(new ListScores(key.orgId, customerId, query));
  }

  @Get('justification')
  @ApiKeyAuthenticated()
  @ApiOperation({ summary: 'Justification report of a scored event, mapped to compliance frameworks' })
  @ApiQuery({ name: 'event_id', required: true })
  @ScoringAnswers(200, 'Justification report', [400, 404], justificationReport)
  justification(@CurrentApiKey() key: ApiKeyPrincipal, @Query('event_id') eventId: string | undefined) {
    return this.queries.execute(new GetJustification(key.orgId, eventId));
  }
}
