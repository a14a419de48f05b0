// The tenant flows (docs/architecture.md, spec 002 §3): pure decide/evolve over event unions, modelled on
// emmett's shoppingCart. Two kinds, each its own stream and its own decider: `onboard` (request →
// active, onboard.ts) and `offboard` (deprovision → deprovisioned, offboard.ts). This module routes
// a command or an event to the decider of the flow it concerns, and derives what both show.

import { Command, Context, Step } from './commands';
import { NoSuchFlow } from './errors';
import { MAX_ATTEMPTS_DEFAULT } from './flow-base';
import {
  decideOffboard,
  evolveOffboard,
  isOffboardEvent,
  nextOffboardStep,
  OFFBOARD_STATES,
  OffboardEvent,
  OffboardState,
} from './offboard';
import { evolveOnboard, isOnboardEvent, nextOnboardStep, ONBOARD_STATES, OnboardEvent, OnboardState } from './onboard';
import { decideOnboard, requestTenant } from './onboard-decide';

export * from './commands';
export * from './errors';
export { isLive, MAX_ATTEMPTS_DEFAULT, MIN_JUSTIFICATION_LENGTH, MIN_REASON_LENGTH, Placement } from './flow-base';
export { OFFBOARD_STATES, OffboardEvent, OffboardState } from './offboard';
export { databaseName, ONBOARD_STATES, OnboardEvent, OnboardState, TOKEN_STATES } from './onboard';

export type FlowStatus = (typeof ONBOARD_STATES)[number] | (typeof OFFBOARD_STATES)[number];
export type FlowState = OnboardState | OffboardState;
export type FlowEvent = OnboardEvent | OffboardEvent;
export type FlowEventType = FlowEvent['type'];

export function decide(
  command: Command,
  state: FlowState | null,
  ctx: Context,
  maxAttempts = MAX_ATTEMPTS_DEFAULT,
): FlowEvent[] {
  if (command.type === 'RequestTenant') return requestTenant(command, state, ctx);
  if (state === null) throw new NoSuchFlow('no flow exists for this tenant');
  return state.kind === 'onboard'
    ? decideOnboard(command, state, ctx, maxAttempts)
    : decideOffboard(command, state, ctx, maxAttempts);
}

export function evolve(state: FlowState | null, e: FlowEvent): FlowState {
  // The first event of a stream says which kind of flow it is.
  if (e.type === 'TenantRequested') return evolveOnboard(null, e);
  if (e.type === 'DeprovisionRequested') return evolveOffboard(null, e);
  if (state === null) throw new Error(`${e.type} cannot open a flow`);
  if (state.kind === 'onboard' && isOnboardEvent(e)) return evolveOnboard(state, e);
  if (state.kind === 'offboard' && isOffboardEvent(e)) return evolveOffboard(state, e);
  throw new Error(`${e.type} does not belong to an ${state.kind} flow`);
}

export const fold = (events: FlowEvent[]): FlowState | null =>
  events.reduce<FlowState | null>((s, e) => evolve(s, e), null);

/** The step the engine runs next for a flow, or null when it waits for a person or a daemon. */
export const nextStep = (s: FlowState): Step | null =>
  s.kind === 'onboard' ? nextOnboardStep(s) : nextOffboardStep(s);

/** When the engine should wake the flow: now for a runnable step, the retry time for a failed one. */
export function dueAt(s: FlowState): string | null {
  if (nextStep(s) === null) return null;
  return s.nextRetryAt ?? s.updatedAt;
}

/** The tenant behind a flow that must be its onboard flow (tokens, compensation). */
export function onboardOf(s: FlowState | null): OnboardState {
  if (s === null || s.kind !== 'onboard') throw new NoSuchFlow('no onboard flow exists for this tenant');
  return s;
}

export const PRESENTATIONS = [
  'in-progress',
  'awaiting-approval',
  'backing-off',
  'needs-resume',
  'waiting-for-daemon',
  'live',
  'compensating',
  'done',
] as const;
export type Presentation = (typeof PRESENTATIONS)[number];

/** Derived, never stored (spec §2): how the flow looks to a person right now. */
export function presentation(s: FlowState): Presentation {
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
