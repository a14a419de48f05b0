import { INGEST_TOKEN_CHANGED_TYPE, IngestTokenChangedV1, TOPICS } from '@agentwatch/contracts';
import { Queryable } from '@agentwatch/db';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { Context, OperatorCommand, Step } from './domain/commands';
import { BadRequest, NoSuchFlow, Unprocessable } from './domain/errors';
import { decide, FlowState, OFFBOARD_STATES, ONBOARD_STATES, PRESENTATIONS, presentation } from './domain/flow';
import { OffboardState } from './domain/offboard';
import { OnboardState } from './domain/onboard';
import { parseTextBody, tenantRequestSchema } from './domain/tenant-request';
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

const instant = z.iso.datetime();
const flowKind = z.enum(['onboard', 'offboard']);
/** Any state of either kind of flow. */
const flowStatus = z.union([z.enum(ONBOARD_STATES), z.enum(OFFBOARD_STATES)]);
// Listed again for the document; `satisfies` and the views' return types fail the build if it and Step part.
const STEPS = [
  'request-approval',
  'place',
  'create-database',
  'route',
  'await-checkin',
  'compensate',
  'revoke-tokens',
  'remove-route',
  'erase-identity',
  'drop-database',
] as const satisfies readonly Step[];

/** What approve, reject, cancel, resume and deprovision answer: the flow the command acted on. */
export const flowSummaryView = z.object({
  slug: z.string(),
  flow_id: z.uuid(),
  flow_kind: flowKind,
  state: flowStatus,
  presentation: z.enum(PRESENTATIONS),
  poll_url: z.string(),
  stream_url: z.string(),
});
export type FlowSummary = z.infer<typeof flowSummaryView>;

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

const flowDetailView = flowSummaryView.omit({ slug: true, poll_url: true, stream_url: true }).extend({
  attempts: z.number().int().nonnegative(),
  next_retry_at: instant.nullable(),
  last_error: z.string().nullable(),
  failed_step: z.enum(STEPS).nullable(),
  requester: z.string(),
  approver: z.string().nullable(),
  requested_at: instant,
  approved_at: instant.nullable(),
  updated_at: instant,
  ended_at: instant.nullable(),
  end_reason: z.string().nullable(),
});

const request = tenantRequestSchema.shape;
const count = z.number().int().nonnegative();

/**
 * GET /v1/tenants/{slug}: the request, the provisioning flow and where it placed the tenant; the
 * request's fields are null in a flow recorded without them.
 */
export const tenantDetailView = z.object({
  slug: z.string(),
  organization_id: z.uuid(),
  name: z.string().nullable(),
  owner_email: z.string().nullable(),
  region: z.string().nullable(),
  plan_tier: request.plan_tier.nullable(),
  isolation: request.isolation.nullable(),
  security_profile_target: request.security_profile_target.unwrap().nullable(),
  dev_endpoints: count.nullable(),
  server_endpoints: count.nullable(),
  notes: z.string().nullable(),
  ...flowDetailView.shape,
  database_name: z.string().nullable(),
  cell: z.string().nullable(),
  placement: z.object({
    cell: z.string().nullable(),
    region: z.string(),
    database_name: z.string().nullable(),
    schema_version: z.string().nullable(),
  }),
  activated_at: instant.nullable(),
  tokens_minted: count,
  /** The latest offboard flow, live or ended; null when none was requested. */
  deprovision: flowDetailView.extend({ justification: z.string() }).nullable(),
  poll_url: z.string(),
  stream_url: z.string(),
});
export type TenantDetail = z.infer<typeof tenantDetailView>;

function flowDetail(s: FlowState): z.infer<typeof flowDetailView> {
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

export function tenantDetail(onboard: FlowRow<OnboardState>, offboard: FlowRow<OffboardState> | null): TenantDetail {
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
