import { mintDeployToken } from '@agentwatch/auth';
import { INGEST_TOKEN_CHANGED_TYPE, IngestTokenChangedV1, TOPICS } from '@agentwatch/contracts';
import { Queryable } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Context, OperatorCommand } from './domain/commands';
import { BadRequest, NoSuchFlow, Unprocessable } from './domain/errors';
import { decide, FlowState, onboardOf, presentation } from './domain/flow';
import { OffboardState } from './domain/offboard';
import { OnboardState } from './domain/onboard';
import { tenantOrgId } from './domain/policy';
import { parseTenantRequest, parseTextBody } from './domain/tenant-request';
import { appendToFlow, enqueue, FlowRow, flowsOfSlug, loadFlow, lockTenant } from './journal/journal';
import { TenancySettings } from './tenancy.settings';

export const pollUrl = (slug: string) => `/v1/tenants/${slug}`;
export const streamUrl = (slug: string) => `/v1/tenants/${slug}/events`;

function refuse(verdict: { error: 'bad_request' | 'unprocessable'; detail: string }): never {
  throw verdict.error === 'bad_request' ? new BadRequest(verdict.detail) : new Unprocessable(verdict.detail);
}

export function textOf(body: unknown, field: 'reason' | 'justification'): string {
  const verdict = parseTextBody(body, field);
  if (!verdict.ok) refuse(verdict);
  return (verdict as { text: string }).text;
}

/** The operator use cases: each loads the flow, decides, and appends in one transaction. */
@Injectable()
export class TenantFlows {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  async request(ctx: Context, body: unknown) {
    const verdict = parseTenantRequest(body);
    if (!verdict.ok) refuse(verdict);
    const request = (verdict as { value: import('./domain/tenant-request').TenantRequest }).value;
    const flowId = uuidv7();
    const state = await this.dataSource.transaction(async (tx) => {
      const { onboard } = await flowsOfSlug(tx, request.slug);
      const live = onboard?.live ? (await loadFlow(tx, onboard.stream_id)).state : null;
      const command: OperatorCommand = {
        type: 'RequestTenant',
        flowId,
        tenantId: flowId,
        orgId: tenantOrgId(request.slug),
        request,
      };
      return appendToFlow(tx, flowId, 0, null, decide(command, live, ctx));
    });
    return { slug: state.slug, state: state.status, poll_url: pollUrl(state.slug), stream_url: streamUrl(state.slug) };
  }

  /** Approve, reject, cancel and resume act on the live offboard flow when there is one (spec §3). */
  async decideOnCurrent(ctx: Context, slug: string, command: OperatorCommand) {
    const state = await this.dataSource.transaction(async (tx) => {
      const flow = await this.current(tx, slug);
      const { state: prior, version } = await loadFlow(tx, flow.stream_id);
      return appendToFlow(
        tx,
        flow.stream_id,
        version,
        prior,
        decide(command, prior, ctx, this.settings.retry.maxAttempts),
      );
    });
    return this.summary(state);
  }

  async deprovision(ctx: Context, slug: string, justification: string) {
    const flowId = uuidv7();
    const state = await this.dataSource.transaction(async (tx) => {
      const { onboard, offboard } = await this.locked(tx, slug);
      const { state: prior } = await loadFlow(tx, (offboard?.live ? offboard : (onboard as FlowRow)).stream_id);
      const events = decide({ type: 'RequestDeprovision', flowId, justification }, prior, ctx);
      return appendToFlow(tx, flowId, 0, null, events);
    });
    return this.summary(state);
  }

  /** The raw token leaves this method once, in the answer; only its hash and prefix are kept. */
  async mintToken(ctx: Context, slug: string) {
    const tokenId = uuidv7();
    const minted = mintDeployToken();
    const state = await this.dataSource.transaction(async (tx) => {
      const onboard = (await this.locked(tx, slug)).onboard as FlowRow;
      const { state: prior, version } = await loadFlow(tx, onboard.stream_id);
      const events = decide({ type: 'MintIngestToken', tokenId, prefix: minted.prefix }, prior, ctx);
      const next = await appendToFlow(tx, onboard.stream_id, version, prior, events);
      await tx.query(
        `INSERT INTO tenancy_tokens (id, tenant_id, slug, org_id, token_hash, prefix, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenId, next.tenantId, slug, next.orgId, minted.hash, minted.prefix, ctx.actor, ctx.now],
      );
      await enqueueToken(
        tx,
        onboardOf(next),
        { id: tokenId, token_hash: minted.hash, prefix: minted.prefix },
        'minted',
        ctx.now,
      );
      return next;
    });
    return {
      token: minted.raw,
      token_id: tokenId,
      prefix: minted.prefix,
      organization_id: state.orgId,
      slug,
      created_at: ctx.now,
    };
  }

  async detail(slug: string) {
    const { onboard, offboard } = await flowsOfSlug(this.dataSource.manager, slug);
    if (!onboard) throw new NoSuchFlow(`no tenant ${slug}`);
    return tenantDetail(onboard, offboard);
  }

  private async current(tx: Queryable, slug: string): Promise<FlowRow> {
    const { onboard, offboard } = await this.locked(tx, slug);
    return offboard?.live ? offboard : (onboard as FlowRow);
  }

  /** The slug's flows, with the tenant locked first (an offboard flow may open meanwhile: re-read). */
  private async locked(tx: Queryable, slug: string) {
    const found = await flowsOfSlug(tx, slug);
    if (!found.onboard) throw new NoSuchFlow(`no tenant ${slug}`);
    await lockTenant(tx, found.onboard.stream_id);
    return flowsOfSlug(tx, slug);
  }

  private summary(s: FlowState) {
    return {
      slug: s.slug,
      flow_id: s.flowId,
      flow_kind: s.kind,
      state: s.status,
      presentation: presentation(s),
      poll_url: pollUrl(s.slug),
      stream_url: streamUrl(s.slug),
    };
  }
}

export async function enqueueToken(
  tx: Queryable,
  tenant: OnboardState,
  token: { id: string; token_hash: string; prefix: string },
  action: 'minted' | 'revoked',
  at: string,
): Promise<void> {
  const payload: IngestTokenChangedV1 = {
    action,
    token_id: token.id,
    org_id: tenant.orgId,
    slug: tenant.slug,
    organization_name: tenant.request.name,
    token_hash: token.token_hash,
    prefix: token.prefix,
    schema_version: tenant.placement.schema_version,
    at,
  };
  await enqueue(
    tx,
    TOPICS.tenancyTokens.name,
    tenant.orgId,
    uuidv7(),
    INGEST_TOKEN_CHANGED_TYPE,
    tenant.orgId,
    payload,
  );
}

function flowDetail(s: FlowState) {
  return {
    flow_id: s.flowId,
    flow_kind: s.kind,
    state: s.status,
    presentation: presentation(s),
    attempts: s.attempts,
    next_retry_at: s.nextRetryAt,
    last_error: s.lastError,
    failed_step: s.pendingStep,
    requester: s.requester,
    approver: s.approver,
    requested_at: s.requestedAt,
    approved_at: s.approvedAt,
    updated_at: s.updatedAt,
    ended_at: s.endedAt,
    end_reason: s.endReason,
  };
}

export function tenantDetail(onboard: FlowRow<OnboardState>, offboard: FlowRow<OffboardState> | null) {
  const s = onboard.detail;
  const request = s.request;
  return {
    slug: s.slug,
    organization_id: s.orgId,
    name: request?.name ?? null,
    owner_email: request?.owner_email ?? null,
    region: request?.region ?? null,
    plan_tier: request?.plan_tier ?? null,
    isolation: request?.isolation ?? null,
    security_profile_target: request?.security_profile_target ?? null,
    dev_endpoints: request?.dev_endpoints ?? null,
    server_endpoints: request?.server_endpoints ?? null,
    notes: request?.notes ?? null,
    ...flowDetail(s),
    database_name: s.placement.database_name,
    cell: s.placement.cell,
    placement: { ...s.placement },
    activated_at: s.activatedAt,
    tokens_minted: s.tokensMinted,
    deprovision: offboard ? { ...flowDetail(offboard.detail), justification: offboard.detail.justification } : null,
    poll_url: pollUrl(s.slug),
    stream_url: streamUrl(s.slug),
  };
}
