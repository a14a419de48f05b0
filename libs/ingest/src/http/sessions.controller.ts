import { Authenticated, CurrentPrincipal, DAEMON_OR_USER, Principal } from '@agentwatch/auth';
import { sessionIngestRecord, sessionLifecycleBody } from '@agentwatch/contracts';
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
import { z } from 'zod';
import { eventPage } from '../events/event-view';
import { GetSession } from '../sessions/get-session';
import { IngestSessions, sessionsIngested } from '../sessions/ingest-sessions';
import { ListSessionChildren } from '../sessions/list-session-children';
import { ListSessionEvents } from '../sessions/list-session-events';
import { ListSessions, sessionFilters } from '../sessions/list-sessions';
import { sessionChildren, sessionDetail, sessionPage } from '../sessions/session-view';
import { CURSOR_DOC } from '../shared/pagination';
import { RateLimited } from './ingest-rate-limit';

@ApiTags('sessions')
@Controller('v1/sessions')
export class SessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('ingest')
  @HttpCode(200)
  @Authenticated(DAEMON_OR_USER)
  @RateLimited()
  @ApiJsonBody(
    z.union([sessionIngestRecord, sessionLifecycleBody]),
    'The flat record of the spec, or the development wrapper',
  )
  @ApiOperation({
    summary: 'Report session lifecycle',
    description:
      'The flat record `{session_id, state, timestamp, session_name?, model?, signing_id?, platform?, parent_id?}` → `{ok: true, ingested: 1}`, ' +
      'or the wrapper `{events:[{event_type: session_start|session_end, session_id, started_at?, ended_at?, timestamp?, …}]}` → ' +
      '`{ok: true, ingested: N}`. State rules: active ↔ idle, either → ended; ended is final; records apply in timestamp order, ' +
      'so a late, older record never regresses the state.',
  })
  @ApiAnswers(200, '`{"ok": true, "ingested": N}`', [...INGEST_ERRORS], sessionsIngested)
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new IngestSessions(principal, body));
  }

  @Get()
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'List sessions, newest first',
    description:
      '`{sessions:[…], next_cursor}`. Filters: state, platform, parent_id, root_only=true (parent_id null), since and end_time ' +
      `(inclusive bounds on started_at); limit (default 100, max 1000) and cursor. ${CURSOR_DOC}`,
  })
  @ApiJsonQuery(sessionFilters.extend(pagingQuery.shape))
  @ApiAnswers(200, '`{sessions, next_cursor}`', [400], sessionPage)
  list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListSessions(principal.orgId, query));
  }

  @Get(':id')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'One session with its children and risk summary',
    description: '`risk_summary`: total_events, max_risk and avg_risk over the scored events (0 while none is scored).',
  })
  @ApiAnswers(200, 'The session with children and risk_summary', [...READ_ERRORS], sessionDetail)
  get(@CurrentPrincipal() principal: Principal, @Param('id', UuidParam) id: string) {
    return this.queries.execute(new GetSession(principal.orgId, id));
  }

  @Get(':id/children')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'Child sessions',
    description: '`{children:[…]}` oldest first; 404 when the parent is unknown.',
  })
  @ApiAnswers(200, '`{children}`', [...READ_ERRORS], sessionChildren)
  children(@CurrentPrincipal() principal: Principal, @Param('id', UuidParam) id: string) {
    return this.queries.execute(new ListSessionChildren(principal.orgId, id));
  }

  @Get(':id/events')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: "A session's events in timestamp order",
    description:
      'Without `limit` and `cursor`: every event of the session, `{events:[…], next_cursor: null}`, streamed as it is read ' +
      '(one consistent snapshot). With `limit` (1–1000) or `cursor`: one keyset page, `{events:[…], next_cursor}`, ' +
      `next_cursor null on the last page. ${CURSOR_DOC} ` +
      'A session of another organization, or one with neither a lifecycle record nor events → 404.',
  })
  @ApiJsonQuery(pagingQuery)
  @ApiAnswers(200, '`{events, next_cursor}`', [...READ_ERRORS], eventPage)
  events(
    @CurrentPrincipal() principal: Principal,
    @Param('id', UuidParam) id: string,
    @Query() query: { limit?: unknown; cursor?: unknown },
  ) {
    return this.queries.execute(new ListSessionEvents(principal.orgId, id, query));
  }
}
