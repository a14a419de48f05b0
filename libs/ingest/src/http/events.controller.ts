import { Authenticated, CurrentPrincipal, DAEMON_OR_USER, Principal } from '@agentwatch/auth';
import { eventIngestBody } from '@agentwatch/contracts';
import {
  ApiAnswers,
  ApiJsonBody,
  ApiJsonQuery,
  INGEST_ERRORS,
  pagingQuery,
  READ_ERRORS,
  UuidParam,
} from '@agentwatch/http';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { eventDetail, eventPage } from '../events/event-view';
import { GetEvent } from '../events/get-event';
import { eventStats, GetEventStats } from '../events/get-event-stats';
import { eventsIngested, IngestEvents } from '../events/ingest-events';
import { eventFilters, ListEvents } from '../events/list-events';
import { CURSOR_DOC } from '../shared/pagination';
import { RateLimited } from './ingest-rate-limit';

@ApiTags('events')
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('ingest')
  @HttpCode(200)
  @Authenticated(DAEMON_OR_USER)
  @RateLimited()
  @ApiJsonBody(eventIngestBody)
  @ApiOperation({
    summary: 'Append a batch of daemon events',
    description:
      'Validates the whole batch first: any invalid item → 400 `{error, details:[{index, path, message}]}` and nothing is ' +
      'ingested. At most 1000 items and 5 MB (413 beyond). Answers `{ingested: N}` only after Kafka acknowledged every record; ' +
      'when the broker does not acknowledge in time → 503 and nothing is reported as accepted; so does an organization whose ' +
      'database is not routable now (503 with `Retry-After: 30`). ' +
      'An item with `event_id` gets an id derived from the organization, its `event_id` and its `timestamp` (a UUIDv8 ' +
      'beginning with that instant), so a retried batch is stored once; items repeating both are one event.',
  })
  @ApiAnswers(200, '`{"ingested": N}`', [...INGEST_ERRORS], eventsIngested)
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new IngestEvents(principal, body));
  }

  @Get()
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'List events, newest first',
    description:
      '`{events:[…], next_cursor}`. Filters: agent_id, session_id, action_type, tool_name, min_risk and max_risk (inclusive, ' +
      'integers 0–100; unscored events never match a risk filter), since and end_time (inclusive ISO 8601 bounds on the event ' +
      'timestamp), decision (allow | warn | block). Keyset pages: limit (default 100, max 1000) and cursor (the previous ' +
      "page's next_cursor, null on the last page). An invalid filter → 400 `{error:'Invalid query', details}`. " +
      CURSOR_DOC,
  })
  @ApiJsonQuery(eventFilters.extend(pagingQuery.shape))
  @ApiAnswers(200, '`{events, next_cursor}`', [400], eventPage)
  list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListEvents(principal.orgId, query));
  }

  @Get('stats')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'Statistics of the last 24 hours',
    description:
      '`{window:{since, until}, total, by_action_type, by_decision, by_risk_level (none, low, medium, high, critical, unscored), ' +
      'top_tools:[{tool_name, count}] (10), hourly:[{hour, count}], projection_lag:{events:{records_behind}}}` over events whose ' +
      'timestamp lies in the last 24 hours.',
  })
  @ApiAnswers(200, '24-hour statistics', [], eventStats)
  stats(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new GetEventStats(principal.orgId));
  }

  @Get(':id')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'One event',
    description:
      'The event with `received_at`, `scored_at` and `machine_id`; 404 `{error:"Event not found"}` for an unknown id or another organization\'s; 400 for a malformed UUID.',
  })
  @ApiAnswers(200, 'The event', [...READ_ERRORS], eventDetail)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParam) id: string) {
    return this.queries.execute(new GetEvent(principal.orgId, id));
  }
}
