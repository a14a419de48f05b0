// The tenant flow aggregate (docs/architecture.md, spec 002 §3): pure decide/evolve over an event union,
// modelled on emmett's shoppingCart. Two kinds of flow share it: `onboard` (request → active) and
// `offboard` (deprovision → deprovisioned), each its own stream.

import { TenantRequest } from './tenant-request';

export const ONBOARD_STATES = [
  'requested',
  'pending-approval',
  'provisioning',
  'provisioned',
  'db-ready',
  'routed',
  'awaiting-first-checkin',
  'active',
  'failed',
  'paused',
  'rejected',
  'cancelled',
  'deprovisioned',
] as const;
export const OFFBOARD_STATES = [
  'pending-approval',
  'deprovisioning',
  'deprovisioned',
  'failed',
  'paused',
  'rejected',
  'cancelled',
] as const;
export type FlowStatus = (typeof ONBOARD_STATES)[number] | (typeof OFFBOARD_STATES)[number];

/** A step the engine runs from a state; `failed` and `paused` remember it to retry or resume. */
export type Step =
  | 'request-approval'
  | 'place'
  | 'create-database'
  | 'route'
  | 'await-checkin'
  | 'compensate'
  | 'revoke-tokens'
  | 'remove-route'
  | 'drop-database';

export interface Placement {
  cell: string | null;
  region: string;
  database_name: string | null;
  schema_version: string | null;
}

export interface FlowState {
  kind: 'onboard' | 'offboard';
  flowId: string;
  tenantId: string;
  slug: string;
  orgId: string;
  status: FlowStatus;
  request: TenantRequest | null;
  justification: string | null;
  requester: string;
  approver: string | null;
  placement: Placement;
  /** The step a `failed` or `paused` flow retries; null otherwise. */
  pendingStep: Step | null;
  attempts: number;
  nextRetryAt: string | null;
  lastError: string | null;
  /** Reject/cancel leave created resources behind until the engine has released them. */
  compensated: boolean;
  routeRecorded: boolean;
  tokensMinted: number;
  offboardStep: 'revoke-tokens' | 'remove-route' | 'drop-database' | null;
  requestedAt: string;
  approvedAt: string | null;
  updatedAt: string;
  activatedAt: string | null;
  endedAt: string | null;
  endReason: string | null;
}

type E<T extends string, D> = { type: T; data: D; actor: string; at: string };

export type FlowEvent =
  | E<'TenantRequested', { flow_id: string; tenant_id: string; slug: string; org_id: string; request: TenantRequest }>
  | E<'ApprovalRequested', Record<string, never>>
  | E<'FlowApproved', { approver: string }>
  | E<'CellPlaced', { cell: string; region: string; database_name: string }>
  | E<'DatabaseMigrated', { database_name: string; schema_version: string }>
  | E<'RouteRecorded', { cell: string; database_name: string; schema_version: string }>
  | E<'FirstCheckinAwaited', Record<string, never>>
  | E<'FirstCheckinReceived', { machine_id: string | null; checked_in_at: string }>
  | E<'StepFailed', { step: Step; reason: string; attempt: number; next_retry_at: string }>
  | E<'RetriesExhausted', { step: Step; reason: string; attempts: number }>
  | E<'FlowResumed', { step: Step }>
  | E<'FlowRejected', { reason: string }>
  | E<'FlowCancelled', { reason: string }>
  | E<'ResourcesReleased', { dropped_database: string | null; removed_route: boolean; revoked_tokens: number }>
  | E<'IngestTokenMinted', { token_id: string; prefix: string }>
  | E<
      'DeprovisionRequested',
      { flow_id: string; tenant_id: string; slug: string; org_id: string; justification: string; placement: Placement }
    >
  | E<'TokensRevoked', { revoked: number }>
  | E<'RouteRemoved', Record<string, never>>
  | E<'DatabaseDropped', { database_name: string | null }>
  | E<'TenantDeprovisioned', { offboard_flow_id: string }>;

export type FlowEventType = FlowEvent['type'];

export type Command =
  | { type: 'RequestTenant'; flowId: string; tenantId: string; orgId: string; request: TenantRequest }
  | { type: 'RequestApproval' }
  | { type: 'ApproveFlow' }
  | { type: 'RejectFlow'; reason: string }
  | { type: 'CancelFlow'; reason: string }
  | { type: 'ResumeFlow' }
  | { type: 'RequestDeprovision'; flowId: string; justification: string }
  | { type: 'PlaceInCell'; cell: string; region: string }
  | { type: 'RecordDatabaseMigrated'; schemaVersion: string }
  | { type: 'RecordRoute'; schemaVersion: string | null }
  | { type: 'AwaitFirstCheckin' }
  | { type: 'RecordFirstCheckin'; machineId: string | null; checkedInAt: string }
  | { type: 'FailStep'; step: Step; reason: string; nextRetryAt: string | null }
  | { type: 'RecordResourcesReleased'; droppedDatabase: string | null; removedRoute: boolean; revokedTokens: number }
  | { type: 'MintIngestToken'; tokenId: string; prefix: string }
  | { type: 'RecordTokensRevoked'; revoked: number }
  | { type: 'RecordRouteRemoved' }
  | { type: 'RecordDatabaseDropped' }
  | { type: 'RecordTenantDeprovisioned'; offboardFlowId: string };

/** Who issues a command, and when: passed in so tests fix both (STYLE.md item 5). */
export interface Context {
  actor: string;
  role: 'operator' | 'viewer' | 'system';
  now: string;
}

// Typed domain errors; the HTTP layer maps each to the spec's status (§7).
export class DomainError extends Error {}
export class FlowConflict extends DomainError {}
export class Forbidden extends DomainError {}
export class Unprocessable extends DomainError {}
export class NoSuchFlow extends DomainError {}
export class BadRequest extends DomainError {}

export const MAX_ATTEMPTS_DEFAULT = 5;
export const MIN_REASON_LENGTH = 3;
export const MIN_JUSTIFICATION_LENGTH = 20;

const TERMINAL: FlowStatus[] = ['rejected', 'cancelled', 'deprovisioned'];
export const isLive = (s: FlowState) => !TERMINAL.includes(s.status);

/** Tokens may be minted once the database is real and migrated (spec §4). */
export const TOKEN_STATES: FlowStatus[] = ['db-ready', 'routed', 'awaiting-first-checkin', 'active'];

const STEP_FROM: Partial<Record<FlowStatus, Step>> = {
  requested: 'request-approval',
  provisioning: 'place',
  provisioned: 'create-database',
  'db-ready': 'route',
  routed: 'await-checkin',
};

/** The step the engine runs next for a flow, or null when it waits for a person or a daemon. */
export function nextStep(s: FlowState): Step | null {
  if (s.status === 'failed') return s.pendingStep;
  if (s.status === 'rejected' || s.status === 'cancelled') {
    // A compensation whose retries ran out waits for a person (its pendingStep stays, nextRetryAt is null).
    if (s.compensated || (s.pendingStep === 'compensate' && s.nextRetryAt === null)) return null;
    return 'compensate';
  }
  if (s.kind === 'offboard') return s.status === 'deprovisioning' ? s.offboardStep : null;
  return STEP_FROM[s.status] ?? null;
}

/** When the engine should wake the flow: now for a runnable step, the retry time for a failed one. */
export function dueAt(s: FlowState): string | null {
  const step = nextStep(s);
  if (step === null) return null;
  return s.nextRetryAt ?? s.updatedAt;
}

/** Derived, never stored (spec §2): how the flow looks to a person right now. */
export function presentation(s: FlowState): string {
  switch (s.status) {
    case 'failed':
      return 'backing-off';
    case 'paused':
      return 'needs-resume';
    case 'pending-approval':
      return 'awaiting-approval';
    case 'awaiting-first-checkin':
      return 'waiting-for-daemon';
    case 'active':
      return 'live';
    case 'deprovisioned':
      return 'done';
    case 'rejected':
    case 'cancelled':
      return s.compensated ? 'done' : 'compensating';
    default:
      return 'in-progress';
  }
}

const event = <T extends FlowEventType>(
  type: T,
  data: Extract<FlowEvent, { type: T }>['data'],
  ctx: Context,
): FlowEvent => ({ type, data, actor: ctx.actor, at: ctx.now }) as FlowEvent;

function requireOperator(ctx: Context): void {
  if (ctx.role === 'viewer') throw new Forbidden('the operator role is required for this route');
}

function requireSystem(ctx: Context): void {
  if (ctx.role !== 'system') throw new Forbidden('only the flow engine runs this step');
}

function requireStatus(s: FlowState, allowed: FlowStatus[], what: string): void {
  if (!allowed.includes(s.status)) throw new FlowConflict(`cannot ${what}: the flow is ${s.status}`);
}

export function decide(command: Command, state: FlowState | null, ctx: Context, maxAttempts = MAX_ATTEMPTS_DEFAULT) {
  if (command.type === 'RequestTenant') {
    requireOperator(ctx);
    if (state !== null && isLive(state)) throw new FlowConflict(`a live flow already exists for ${state.slug}`);
    const { flowId, tenantId, orgId, request } = command;
    return [
      event(
        'TenantRequested',
        { flow_id: flowId, tenant_id: tenantId, slug: request.slug, org_id: orgId, request },
        ctx,
      ),
    ];
  }
  if (state === null) throw new NoSuchFlow('no flow exists for this tenant');
  switch (command.type) {
    case 'RequestApproval':
      requireSystem(ctx);
      requireStatus(state, ['requested'], 'request approval');
      return [event('ApprovalRequested', {}, ctx)];
    case 'ApproveFlow':
      requireOperator(ctx);
      requireStatus(state, ['pending-approval'], 'approve');
      if (ctx.actor === state.requester) throw new Forbidden('the approver must not be the requester');
      return [event('FlowApproved', { approver: ctx.actor }, ctx)];
    case 'RejectFlow':
      requireOperator(ctx);
      if (command.reason.trim().length < MIN_REASON_LENGTH) {
        throw new Unprocessable(`reason: at least ${MIN_REASON_LENGTH} characters`);
      }
      requireStatus(state, ['pending-approval'], 'reject');
      return [event('FlowRejected', { reason: command.reason }, ctx)];
    case 'CancelFlow': {
      requireOperator(ctx);
      if (command.reason.trim().length < MIN_REASON_LENGTH) {
        throw new Unprocessable(`reason: at least ${MIN_REASON_LENGTH} characters`);
      }
      const cancellable: FlowStatus[] =
        state.kind === 'onboard'
          ? [
              'requested',
              'pending-approval',
              'provisioning',
              'provisioned',
              'db-ready',
              'routed',
              'awaiting-first-checkin',
              'failed',
              'paused',
            ]
          : ['pending-approval', 'failed', 'paused'];
      requireStatus(state, cancellable, 'cancel');
      return [event('FlowCancelled', { reason: command.reason }, ctx)];
    }
    case 'ResumeFlow':
      requireOperator(ctx);
      requireStatus(state, ['paused'], 'resume');
      return [event('FlowResumed', { step: state.pendingStep as Step }, ctx)];
    case 'RequestDeprovision':
      requireOperator(ctx);
      if (command.justification.trim().length < MIN_JUSTIFICATION_LENGTH) {
        throw new Unprocessable(`justification: at least ${MIN_JUSTIFICATION_LENGTH} characters`);
      }
      if (state.kind !== 'onboard') throw new FlowConflict('a deprovision flow is already live for this tenant');
      requireStatus(
        state,
        ['active', 'awaiting-first-checkin', 'routed', 'db-ready', 'paused', 'failed'],
        'deprovision',
      );
      return [
        event(
          'DeprovisionRequested',
          {
            flow_id: command.flowId,
            tenant_id: state.tenantId,
            slug: state.slug,
            org_id: state.orgId,
            justification: command.justification,
            placement: state.placement,
          },
          ctx,
        ),
      ];
    case 'PlaceInCell':
      requireSystem(ctx);
      requireStep(state, 'place');
      return [
        event(
          'CellPlaced',
          { cell: command.cell, region: command.region, database_name: databaseName(state.slug) },
          ctx,
        ),
      ];
    case 'RecordDatabaseMigrated':
      requireSystem(ctx);
      requireStep(state, 'create-database');
      return [
        event(
          'DatabaseMigrated',
          { database_name: state.placement.database_name as string, schema_version: command.schemaVersion },
          ctx,
        ),
      ];
    case 'RecordRoute':
      requireSystem(ctx);
      requireStep(state, 'route');
      // Anything that routes traffic refuses a database that is not known to be migrated (spec §3).
      if (command.schemaVersion === null || state.placement.schema_version === null) {
        throw new FlowConflict('refusing to route a tenant whose schema_version is null');
      }
      return [
        event(
          'RouteRecorded',
          {
            cell: state.placement.cell as string,
            database_name: state.placement.database_name as string,
            schema_version: command.schemaVersion,
          },
          ctx,
        ),
      ];
    case 'AwaitFirstCheckin':
      requireSystem(ctx);
      requireStep(state, 'await-checkin');
      return [event('FirstCheckinAwaited', {}, ctx)];
    case 'RecordFirstCheckin':
      requireSystem(ctx);
      // A second daemon, or a redelivered check-in, changes nothing.
      if (state.status !== 'awaiting-first-checkin') return [];
      return [
        event('FirstCheckinReceived', { machine_id: command.machineId, checked_in_at: command.checkedInAt }, ctx),
      ];
    case 'FailStep': {
      requireSystem(ctx);
      requireStep(state, command.step);
      const attempt = state.attempts + 1;
      if (attempt >= maxAttempts || command.nextRetryAt === null) {
        return [event('RetriesExhausted', { step: command.step, reason: command.reason, attempts: attempt }, ctx)];
      }
      return [
        event(
          'StepFailed',
          { step: command.step, reason: command.reason, attempt, next_retry_at: command.nextRetryAt },
          ctx,
        ),
      ];
    }
    case 'RecordResourcesReleased':
      requireSystem(ctx);
      requireStep(state, 'compensate');
      return [
        event(
          'ResourcesReleased',
          {
            dropped_database: command.droppedDatabase,
            removed_route: command.removedRoute,
            revoked_tokens: command.revokedTokens,
          },
          ctx,
        ),
      ];
    case 'MintIngestToken':
      requireOperator(ctx);
      if (state.kind !== 'onboard' || !TOKEN_STATES.includes(state.status)) {
        throw new FlowConflict(`an ingest token can be minted from db-ready on; the flow is ${state.status}`);
      }
      return [event('IngestTokenMinted', { token_id: command.tokenId, prefix: command.prefix }, ctx)];
    case 'RecordTokensRevoked':
      requireSystem(ctx);
      requireStep(state, 'revoke-tokens');
      return [event('TokensRevoked', { revoked: command.revoked }, ctx)];
    case 'RecordRouteRemoved':
      requireSystem(ctx);
      requireStep(state, 'remove-route');
      return [event('RouteRemoved', {}, ctx)];
    case 'RecordDatabaseDropped':
      requireSystem(ctx);
      requireStep(state, 'drop-database');
      return [event('DatabaseDropped', { database_name: state.placement.database_name }, ctx)];
    case 'RecordTenantDeprovisioned':
      requireSystem(ctx);
      if (state.kind !== 'onboard' || state.status === 'deprovisioned') return [];
      return [event('TenantDeprovisioned', { offboard_flow_id: command.offboardFlowId }, ctx)];
  }
}

function requireStep(s: FlowState, step: Step): void {
  if (nextStep(s) !== step) throw new FlowConflict(`step ${step} does not apply: the flow is ${s.status}`);
}

export const databaseName = (slug: string) => `tenant_${slug}`;

function stepDone(s: FlowState, status: FlowStatus, at: string): FlowState {
  return { ...s, status, pendingStep: null, attempts: 0, nextRetryAt: null, lastError: null, updatedAt: at };
}

/** The state a resumed or retried step starts from. */
function stateOfStep(s: FlowState, step: Step): FlowStatus {
  if (step === 'compensate') return s.status;
  if (s.kind === 'offboard') return 'deprovisioning';
  const entry = Object.entries(STEP_FROM).find(([, v]) => v === step);
  return (entry?.[0] as FlowStatus) ?? s.status;
}

export function evolve(state: FlowState | null, e: FlowEvent): FlowState {
  if (e.type === 'TenantRequested') {
    return {
      kind: 'onboard',
      flowId: e.data.flow_id,
      tenantId: e.data.tenant_id,
      slug: e.data.slug,
      orgId: e.data.org_id,
      status: 'requested',
      request: e.data.request,
      justification: null,
      requester: e.actor,
      approver: null,
      placement: { cell: null, region: e.data.request.region, database_name: null, schema_version: null },
      pendingStep: null,
      attempts: 0,
      nextRetryAt: null,
      lastError: null,
      compensated: true,
      routeRecorded: false,
      tokensMinted: 0,
      offboardStep: null,
      requestedAt: e.at,
      approvedAt: null,
      updatedAt: e.at,
      activatedAt: null,
      endedAt: null,
      endReason: null,
    };
  }
  if (e.type === 'DeprovisionRequested') {
    // The offboard flow's first event opens its own stream; `state` there is null.
    return {
      ...(state ?? ({} as FlowState)),
      kind: 'offboard',
      flowId: e.data.flow_id,
      tenantId: e.data.tenant_id,
      slug: e.data.slug,
      orgId: e.data.org_id,
      status: 'pending-approval',
      request: null,
      justification: e.data.justification,
      requester: e.actor,
      approver: null,
      placement: e.data.placement,
      pendingStep: null,
      attempts: 0,
      nextRetryAt: null,
      lastError: null,
      compensated: true,
      routeRecorded: false,
      tokensMinted: 0,
      offboardStep: 'revoke-tokens',
      requestedAt: e.at,
      approvedAt: null,
      updatedAt: e.at,
      activatedAt: null,
      endedAt: null,
      endReason: null,
    };
  }
  if (state === null) throw new Error(`${e.type} cannot open a flow`);
  const s = state;
  switch (e.type) {
    case 'ApprovalRequested':
      return stepDone(s, 'pending-approval', e.at);
    case 'FlowApproved':
      return {
        ...stepDone(s, s.kind === 'onboard' ? 'provisioning' : 'deprovisioning', e.at),
        approver: e.data.approver,
        approvedAt: e.at,
      };
    case 'CellPlaced':
      return {
        ...stepDone(s, 'provisioned', e.at),
        placement: { ...s.placement, cell: e.data.cell, region: e.data.region, database_name: e.data.database_name },
        compensated: false,
      };
    case 'DatabaseMigrated':
      return { ...stepDone(s, 'db-ready', e.at), placement: { ...s.placement, schema_version: e.data.schema_version } };
    case 'RouteRecorded':
      return { ...stepDone(s, 'routed', e.at), routeRecorded: true };
    case 'FirstCheckinAwaited':
      return stepDone(s, 'awaiting-first-checkin', e.at);
    case 'FirstCheckinReceived':
      return { ...stepDone(s, 'active', e.at), activatedAt: e.data.checked_in_at };
    case 'StepFailed':
      return {
        ...s,
        status: e.data.step === 'compensate' ? s.status : 'failed',
        pendingStep: e.data.step,
        attempts: e.data.attempt,
        nextRetryAt: e.data.next_retry_at,
        lastError: e.data.reason,
        updatedAt: e.at,
      };
    case 'RetriesExhausted':
      return {
        ...s,
        status: e.data.step === 'compensate' ? s.status : 'paused',
        pendingStep: e.data.step,
        attempts: e.data.attempts,
        nextRetryAt: null,
        lastError: e.data.reason,
        updatedAt: e.at,
      };
    case 'FlowResumed':
      return { ...stepDone(s, stateOfStep(s, e.data.step), e.at) };
    case 'FlowRejected':
    case 'FlowCancelled':
      return {
        ...stepDone(s, e.type === 'FlowRejected' ? 'rejected' : 'cancelled', e.at),
        // An offboard flow created nothing; an onboard flow may have a database, a route, tokens.
        compensated: s.kind === 'offboard' || (s.placement.cell === null && s.tokensMinted === 0),
        endedAt: e.at,
        endReason: e.data.reason,
      };
    case 'ResourcesReleased':
      return { ...s, compensated: true, pendingStep: null, attempts: 0, nextRetryAt: null, updatedAt: e.at };
    case 'IngestTokenMinted':
      return { ...s, tokensMinted: s.tokensMinted + 1, updatedAt: e.at };
    case 'TokensRevoked':
      return { ...stepDone(s, 'deprovisioning', e.at), offboardStep: 'remove-route' };
    case 'RouteRemoved':
      return { ...stepDone(s, 'deprovisioning', e.at), offboardStep: 'drop-database' };
    case 'DatabaseDropped':
      return { ...stepDone(s, 'deprovisioned', e.at), offboardStep: null, endedAt: e.at };
    case 'TenantDeprovisioned':
      return { ...stepDone(s, 'deprovisioned', e.at), endedAt: e.at, endReason: 'deprovisioned' };
  }
  return s;
}

export const fold = (events: FlowEvent[]): FlowState | null =>
  events.reduce<FlowState | null>((s, e) => evolve(s, e), null);
