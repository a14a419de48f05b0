// The offboard flow (spec 002 §3): a deprovision request, approved by a second operator, revokes
// the tenant's tokens, retires its route (state `deprovisioned`, data key destroyed), erases its
// identity from the shared database and drops its database. Its own stream, opened by the
// onboard flow's RequestDeprovision decision.

import {
  Context,
  EngineCommand,
  FlowCommand,
  isEngineCommand,
  OperatorCommand,
  requireIssuer,
  STEP_RECORDED_BY,
  Step,
} from './commands';
import { FlowConflict } from './errors';
import {
  approve,
  approved,
  cancel,
  compensationStep,
  E,
  ended,
  eventsOf,
  FlowBase,
  failStep,
  MAX_ATTEMPTS_DEFAULT,
  openedBy,
  Placement,
  reject,
  requireJustification,
  requireStatus,
  requireStep,
  resume,
  retriesExhausted,
  SHARED_EVENTS,
  SharedEvent,
  stepDone,
  stepFailed,
} from './flow-base';

export const OFFBOARD_STATES = [
  'pending-approval',
  'deprovisioning',
  'deprovisioned',
  'failed',
  'paused',
  'rejected',
  'cancelled',
] as const;
export type OffboardStatus = (typeof OFFBOARD_STATES)[number];

type OffboardStep = 'revoke-tokens' | 'remove-route' | 'erase-identity' | 'drop-database';

export interface OffboardState extends FlowBase<'offboard', OffboardStatus> {
  justification: string;
  offboardStep: OffboardStep | null;
}

export type DeprovisionRequested = E<
  'DeprovisionRequested',
  { flow_id: string; tenant_id: string; slug: string; org_id: string; justification: string; placement: Placement }
>;

export type OffboardEvent =
  | DeprovisionRequested
  | SharedEvent
  | E<'TokensRevoked', { revoked: number }>
  | E<'RouteRemoved', Record<string, never>>
  | E<'IdentityErased', { erased: Record<string, number> }>
  | E<'DatabaseDropped', { database_name: string | null }>;

const OFFBOARD_EVENTS: Record<OffboardEvent['type'], true> = {
  ...SHARED_EVENTS,
  DeprovisionRequested: true,
  TokensRevoked: true,
  RouteRemoved: true,
  IdentityErased: true,
  DatabaseDropped: true,
};

export const isOffboardEvent = (e: { type: string }): e is OffboardEvent => Object.hasOwn(OFFBOARD_EVENTS, e.type);

const event = eventsOf<OffboardEvent>();

export function nextOffboardStep(s: OffboardState): Step | null {
  if (s.status === 'failed') return s.pendingStep;
  if (s.status === 'rejected' || s.status === 'cancelled') return compensationStep(s);
  return s.status === 'deprovisioning' ? s.offboardStep : null;
}

export function decideOffboard(
  command: FlowCommand,
  state: OffboardState,
  ctx: Context,
  maxAttempts = MAX_ATTEMPTS_DEFAULT,
): OffboardEvent[] {
  requireIssuer(command, ctx);
  return isEngineCommand(command) ? engineStep(command, state, ctx, maxAttempts) : operatorCommand(command, state, ctx);
}

function operatorCommand(command: FlowCommand<OperatorCommand>, s: OffboardState, ctx: Context): OffboardEvent[] {
  switch (command.type) {
    case 'ApproveFlow':
      return approve(s, ctx);
    case 'RejectFlow':
      return reject(s, command.reason, ctx);
    case 'CancelFlow':
      return cancel(s, ['pending-approval', 'failed', 'paused'], command.reason, ctx);
    case 'ResumeFlow':
      return resume(s, ctx);
    case 'RequestDeprovision':
      requireJustification(command.justification);
      throw new FlowConflict('a deprovision flow is already live for this tenant');
    case 'MintIngestToken':
      throw new FlowConflict(`an ingest token can be minted from db-ready on; the flow is ${s.status}`);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function engineStep(command: EngineCommand, s: OffboardState, ctx: Context, maxAttempts: number): OffboardEvent[] {
  const next = nextOffboardStep(s);
  switch (command.type) {
    case 'RecordTokensRevoked':
      requireStep(s, next, 'revoke-tokens');
      return [event('TokensRevoked', { revoked: command.revoked }, ctx)];
    case 'RecordRouteRemoved':
      requireStep(s, next, 'remove-route');
      return [event('RouteRemoved', {}, ctx)];
    case 'RecordIdentityErased':
      requireStep(s, next, 'erase-identity');
      return [event('IdentityErased', { erased: command.erased }, ctx)];
    case 'RecordDatabaseDropped':
      requireStep(s, next, 'drop-database');
      return [event('DatabaseDropped', { database_name: s.placement.database_name }, ctx)];
    case 'FailStep':
      requireStep(s, next, command.step);
      return failStep(s, command, ctx, maxAttempts);
    case 'RequestApproval':
      // An offboard flow opens awaiting approval: there is no request step to record.
      requireStatus<string>(s, ['requested'], 'request approval');
      return [];
    case 'PlaceInCell':
    case 'RecordDatabaseMigrated':
    case 'RecordRoute':
    case 'AwaitFirstCheckin':
    case 'RecordResourcesReleased':
      // Onboard steps: never the step an offboard flow runs.
      requireStep(s, next, STEP_RECORDED_BY[command.type]);
      return [];
    case 'RecordFirstCheckin':
    case 'RecordTenantDeprovisioned':
      // Facts about the tenant, recorded on its onboard flow; redelivered here they change nothing.
      return [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function opened(e: DeprovisionRequested): OffboardState {
  return {
    ...openedBy(e),
    kind: 'offboard',
    status: 'pending-approval',
    justification: e.data.justification,
    placement: e.data.placement,
    // An offboard flow creates nothing, so a reject or cancel has nothing to release.
    compensated: true,
    offboardStep: 'revoke-tokens',
  };
}

export function evolveOffboard(state: OffboardState | null, e: OffboardEvent): OffboardState {
  if (e.type === 'DeprovisionRequested') return opened(e);
  if (state === null) throw new Error(`${e.type} cannot open a flow`);
  const s = state;
  switch (e.type) {
    case 'FlowApproved':
      return approved(s, 'deprovisioning', e);
    case 'StepFailed':
      return stepFailed(s, e);
    case 'RetriesExhausted':
      return retriesExhausted(s, e);
    case 'FlowResumed':
      return stepDone(s, e.data.step === 'compensate' ? s.status : 'deprovisioning', e.at);
    case 'FlowRejected':
    case 'FlowCancelled':
      return ended(s, e, true);
    case 'TokensRevoked':
      return { ...stepDone(s, 'deprovisioning', e.at), offboardStep: 'remove-route' };
    case 'RouteRemoved':
      return { ...stepDone(s, 'deprovisioning', e.at), offboardStep: 'erase-identity' };
    case 'IdentityErased':
      return { ...stepDone(s, 'deprovisioning', e.at), offboardStep: 'drop-database' };
    case 'DatabaseDropped':
      return { ...stepDone(s, 'deprovisioned', e.at), offboardStep: null, endedAt: e.at };
    default: {
      const _exhaustive: never = e;
      return _exhaustive;
    }
  }
}
