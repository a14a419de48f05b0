import { Authenticated, CurrentPrincipal, DAEMON_OR_USER, Principal } from '@agentwatch/auth';
import { daemonActionItem, eventIngestItem, sessionIngestRecord, sessionLifecycleItem } from '@agentwatch/contracts';
import { ApiAnswers, ApiJsonBody, ApiJsonQuery, INGEST_ERRORS, pagingQuery } from '@agentwatch/http';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import { agentPage } from '../agents/agent-view';
import { ListAgents } from '../agents/list-agents';
import { daemonItemsIngested, IngestDaemonItems } from '../daemon/ingest-daemon-items';
import { CURSOR_DOC } from '../shared/pagination';
import { RateLimited } from './ingest-rate-limit';

@ApiTags('daemon')
@Controller('v1')
export class DaemonController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('ingest')
  @HttpCode(200)
  @Authenticated(['deploy-token', 'service-token'])
  @RateLimited()
  @ApiJsonBody(
    z.object({
      events: z.array(z.union([eventIngestItem, daemonActionItem, sessionLifecycleItem, sessionIngestRecord])),
    }),
  )
  @ApiOperation({
    summary: "A daemon's mixed batch",
    description:
      '`{events:[…]}` whose items are event ingest items (`action_type`), development event items ' +
      '(`{event_id, action, agent, blocked, metadata}`: action names an action type, blocked → decision block, metadata may carry ' +
      'tool_name/tool, arguments/args, path, session_id, timestamp; no timestamp → the time received), wrapper lifecycle items ' +
      '(`event_type`) or flat session records (`state`). All or nothing, like /v1/events/ingest → `{ingested, events, sessions}`.',
  })
  @ApiAnswers(200, '`{ingested, events, sessions}`', [...INGEST_ERRORS], daemonItemsIngested)
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new IngestDaemonItems(principal, body));
  }

  @Get('agents')
  @Authenticated(DAEMON_OR_USER)
  @ApiOperation({
    summary: 'Agents seen in events',
    description:
      "`{agents:[{id, platform, signing_id, first_seen, last_seen}], next_cursor}`, most recently seen first; platform and signing_id come from the agent's latest session. " +
      'Without `limit` and `cursor`: every agent, streamed as it is read, next_cursor null. With `limit` (1–1000) or `cursor`: ' +
      `one keyset page. ${CURSOR_DOC}`,
  })
  @ApiJsonQuery(pagingQuery)
  @ApiAnswers(200, '`{agents, next_cursor}`', [400], agentPage)
  agents(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListAgents(principal.orgId, query));
  }
}
