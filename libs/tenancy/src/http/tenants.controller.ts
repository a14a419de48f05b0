import { ApiJsonBody, responseSchema } from '@agentwatch/http';
import {
  BeforeApplicationShutdown,
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Res,
  UseFilters,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { Context } from '../domain/commands';
import { justificationBodySchema, reasonBodySchema, tenantRequestSchema } from '../domain/tenant-request';
import { TenancySettings } from '../tenancy.settings';
import { flowSummaryView, tenantDetailView, textOf } from '../tenant-flows';
import { ApproveTenant } from '../use-cases/approve-tenant';
import { CancelTenant } from '../use-cases/cancel-tenant';
import { DeprovisionTenant } from '../use-cases/deprovision-tenant';
import { GetTenant } from '../use-cases/get-tenant';
import { MintIngestToken, mintedIngestToken } from '../use-cases/mint-ingest-token';
import { RejectTenant } from '../use-cases/reject-tenant';
import { RequestTenant, requestedTenant } from '../use-cases/request-tenant';
import { ResumeTenant } from '../use-cases/resume-tenant';
import { DomainErrorFilter } from './domain-error.filter';
import { JournalStream, sseFrame } from './journal-stream';
import { CurrentOperator, Operator, OperatorAccess } from './operator-auth';
import { SlugParam } from './operator-error-body';
import { assertEmptyBody, assertWellFormed } from './strict-json';

const ctxOf = (operator: Operator): Context => ({
  actor: operator.id,
  role: operator.role,
  now: new Date().toISOString(),
});

const NOT_FOUND = '`{"error":"not_found",detail}`: no tenant has that slug';
const SUMMARY_BODY = responseSchema(flowSummaryView);
const SUMMARY =
  '`{slug, flow_id, flow_kind, state, presentation, poll_url, stream_url}` of the flow the command acted on ' +
  '(the live offboard flow while a deprovision is open).';
const CONFLICT =
  '`{"error":"conflict","detail":…}`: the flow is not in a state that allows this, or changed concurrently.';

const REASON_REFUSED =
  '`{"error":"unprocessable","detail":"reason: at least 3 characters"}`, or `"reason: required string"` when it is missing';

@ApiTags('tenants')
@Controller('v1/tenants')
@UseFilters(DomainErrorFilter)
export class TenantsController implements BeforeApplicationShutdown {
  /** Open event streams: ended on shutdown, or the HTTP server would wait for them forever. */
  private readonly streams = new Set<FastifyReply['raw']>();

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly stream: JournalStream,
    private readonly settings: TenancySettings,
  ) {}

  beforeApplicationShutdown(): void {
    for (const raw of this.streams) raw.end();
  }

  @Post()
  @HttpCode(202)
  @OperatorAccess('write')
  @ApiJsonBody(tenantRequestSchema.strict(), 'Tenant request body (spec §2). Unknown keys → 400; `gateways` → 422.')
  @ApiAcceptedResponse({
    description: '`{slug, state: "requested", poll_url, stream_url}`',
    schema: responseSchema(requestedTenant),
  })
  @ApiBadRequestResponse({
    description:
      '`{"error":"bad_request","detail":"colour: unknown field"}`: unknown key (each named), or `"body: …"` for malformed ' +
      'JSON, two documents or a non-object. `detail` always starts with the field at fault.',
  })
  @ApiConflictResponse({ description: '`{"error":"conflict",detail}`: a live flow exists for the slug' })
  @ApiUnprocessableEntityResponse({
    description:
      '`{"error":"unprocessable","detail":"plan_tier: one of core, team, enterprise"}`: `<field>: <rule>` for each field ' +
      'that breaks its rule, joined by "; "',
  })
  request(@CurrentOperator() operator: Operator, @Body() body: unknown) {
    return this.commands.execute(new RequestTenant(ctxOf(operator), assertWellFormed(body)));
  }

  @Get(':slug')
  @OperatorAccess('read')
  @ApiOkResponse({
    description:
      'Tenant detail: state, presentation (derived), database_name, cell, placement {cell, region, database_name, schema_version}, ' +
      'attempts, next_retry_at, last_error, requester, approver, timestamps, tokens_minted, deprovision (the offboard flow or null).',
    schema: responseSchema(tenantDetailView),
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  detail(@Param('slug', SlugParam) slug: string) {
    return this.queries.execute(new GetTenant(slug));
  }

  @Post(':slug/approve')
  @HttpCode(200)
  @OperatorAccess('write')
  @ApiOkResponse({ description: `Approved. ${SUMMARY}`, schema: SUMMARY_BODY })
  @ApiConflictResponse({ description: CONFLICT })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  approve(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    assertEmptyBody(body);
    return this.commands.execute(new ApproveTenant(ctxOf(operator), slug));
  }

  @Post(':slug/reject')
  @HttpCode(200)
  @OperatorAccess('write')
  @ApiJsonBody(reasonBodySchema, '`{"reason": string}`, at least 3 characters')
  @ApiOkResponse({ description: `Rejected: the flow ends in state \`rejected\`. ${SUMMARY}`, schema: SUMMARY_BODY })
  @ApiConflictResponse({ description: CONFLICT })
  @ApiUnprocessableEntityResponse({ description: REASON_REFUSED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  reject(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    return this.commands.execute(new RejectTenant(ctxOf(operator), slug, textOf(assertWellFormed(body), 'reason')));
  }

  @Post(':slug/cancel')
  @HttpCode(200)
  @OperatorAccess('write')
  @ApiJsonBody(reasonBodySchema, '`{"reason": string}`, at least 3 characters')
  @ApiOkResponse({
    description: `Cancelled: the flow ends in state \`cancelled\`; what it created is released. ${SUMMARY}`,
    schema: SUMMARY_BODY,
  })
  @ApiConflictResponse({ description: CONFLICT })
  @ApiUnprocessableEntityResponse({ description: REASON_REFUSED })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  cancel(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    return this.commands.execute(new CancelTenant(ctxOf(operator), slug, textOf(assertWellFormed(body), 'reason')));
  }

  @Post(':slug/resume')
  @HttpCode(200)
  @OperatorAccess('write')
  @ApiJsonBody(reasonBodySchema.partial(), 'none, or `{"reason": string}`')
  @ApiOkResponse({
    description: `Resumed: the paused step runs again with a fresh retry budget. ${SUMMARY}`,
    schema: SUMMARY_BODY,
  })
  @ApiConflictResponse({ description: `${CONFLICT} Only a paused flow resumes.` })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  resume(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    if (body !== undefined && body !== null && !(typeof body === 'object' && Object.keys(body).length === 0)) {
      textOf(assertWellFormed(body), 'reason');
    }
    return this.commands.execute(new ResumeTenant(ctxOf(operator), slug));
  }

  @Post(':slug/tokens')
  @HttpCode(201)
  @OperatorAccess('write')
  @ApiCreatedResponse({
    description:
      '`{token, token_id, prefix, organization_id, slug, created_at}`: the raw token, shown this once; only its SHA-256 and prefix are kept.',
    schema: responseSchema(mintedIngestToken),
  })
  @ApiConflictResponse({ description: 'The tenant is not db-ready yet (or has ended).' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  mintToken(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    assertEmptyBody(body);
    return this.commands.execute(new MintIngestToken(ctxOf(operator), slug));
  }

  @Post(':slug/deprovision')
  @HttpCode(202)
  @OperatorAccess('write')
  @ApiJsonBody(justificationBodySchema, '`{"justification": string}`, at least 20 characters')
  @ApiAcceptedResponse({
    description: `An offboard flow opened, state \`pending-approval\`. ${SUMMARY}`,
    schema: SUMMARY_BODY,
  })
  @ApiConflictResponse({
    description: 'A deprovision is already live, or the tenant cannot be deprovisioned in its state.',
  })
  @ApiUnprocessableEntityResponse({
    description:
      '`{"error":"unprocessable","detail":"justification: at least 20 characters"}` (or `justification: required string`)',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  deprovision(@CurrentOperator() operator: Operator, @Param('slug', SlugParam) slug: string, @Body() body: unknown) {
    const justification = textOf(assertWellFormed(body), 'justification');
    return this.commands.execute(new DeprovisionTenant(ctxOf(operator), slug, justification));
  }

  @Get(':slug/events')
  @OperatorAccess('read')
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'Server-sent events: every journal event of the flow as `id: <position>`, `event: <type>`, `data: <json>`; history first, then live. ' +
      '`Last-Event-ID` resumes after that position. Comment lines `: heartbeat` keep the connection open.',
  })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async events(
    @Param('slug', SlugParam) slug: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const cursor = await this.stream.open(slug);
    let last = /^\d{1,18}$/.test(lastEventId ?? '') ? BigInt(lastEventId as string) : 0n;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 2000\n\n');
    this.streams.add(raw);
    let open = true;
    raw.on('close', () => {
      open = false;
      this.streams.delete(raw);
    });
    let replay = true;
    let lastWrite = Date.now();
    while (open) {
      try {
        const rows = await this.stream.after(cursor, last, replay);
        for (const row of rows) {
          raw.write(sseFrame(row));
          last = BigInt(row.position);
          lastWrite = Date.now();
        }
        if (rows.length < 500) replay = false;
        if (rows.length > 0) continue;
      } catch {
        break;
      }
      if (Date.now() - lastWrite >= this.settings.heartbeatMs) {
        raw.write(': heartbeat\n\n');
        lastWrite = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, this.settings.pollMs));
    }
    this.streams.delete(raw);
    if (!raw.writableEnded) raw.end();
  }
}
