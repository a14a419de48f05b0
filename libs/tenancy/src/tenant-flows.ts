import { INGEST_TOKEN_CHANGED_TYPE, IngestTokenChangedV1, TOPICS } from '@agentwatch/contracts';
import { Queryable } from '@agentwatch/db';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Context, OperatorCommand } from './domain/commands';
import { BadRequest, NoSuchFlow, Unprocessable } from './domain/errors';
import { decide, FlowState, presentation } from './domain/flow';
import { OffboardState } from './domain/offboard';
import { OnboardState } from './domain/onboard';
import { parseTextBody } from './domain/tenant-request';
import { appendToFlow, enqueue, FlowRow, flowsOfSlug, loadFlow, lockTenant } from './journal/journal';
import { TenancySettings } from './tenancy.settings';

export const pollUrl = (slug: string) => `/v1/tenants/${slug}`;
export const streamUrl = (slug: string) => `/v1/tenants/${slug}/events`;

export function refuse(verdict: { error: 'bad_request' | 'unprocessable'; detail: string }): never {
  throw verdict.error === 'bad_request' ? new BadRequest(verdict.detail) : new Unprocessable(verdict.detail);
}

export function textOf(body: unknown, field: 'reason' | 'justification'): string {
  const verdict = parseTextBody(body, field);
  if (!verdict.ok) refuse(verdict);
  return (verdict as { text: string }).text;
}

/** The slug's flows, with the tenant locked first (an offboard flow may open meanwhile: re-read). */
export async function lockedFlows(tx: Queryable, slug: string) {
  const found = await flowsOfSlug(tx, slug);
  if (!found.onboard) throw new NoSuchFlow(`no tenant ${slug}`);
  await lockTenant(tx, found.onboard.stream_id);
  return flowsOfSlug(tx, slug);
}

export interface FlowSummary {
  slug: string;
  flow_id: string;
  flow_kind: FlowState['kind'];
  state: FlowState['status'];
  presentation: ReturnType<typeof presentation>;
  poll_url: string;
  stream_url: string;
}

/** What an operator command answers: the flow it acted on. */
export function flowSummary(s: FlowState): FlowSummary {
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

/**
 * Approve, reject, cancel and resume act on the live offboard flow when there is one (spec §3):
 * load it, decide, and append in one transaction.
 */
export async function decideOnCurrent(
  dataSource: DataSource,
  settings: TenancySettings,
  { ctx, slug }: { ctx: Context; slug: string },
  command: OperatorCommand,
) {
  const state = await dataSource.transaction(async (tx) => {
    const { onboard, offboard } = await lockedFlows(tx, slug);
    const flow = offboard?.live ? offboard : (onboard as FlowRow);
    const { state: prior, version } = await loadFlow(tx, flow.stream_id);
    return appendToFlow(tx, flow.stream_id, version, prior, decide(command, prior, ctx, settings.retry.maxAttempts));
  });
  return flowSummary(state);
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
