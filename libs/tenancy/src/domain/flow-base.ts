// What the onboard and offboard flows share: the fields every flow carries, the events both record
// (a decision, a failed or exhausted step, a resume, an end) and how both decide and fold those.

import { Context, Step } from './commands';
import { FlowConflict, Forbidden, Unprocessable } from './errors';

export interface Placement {
  cell: string | null;
  region: string;
  database_name: string | null;
  schema_version: string | null;
}

export interface FlowBase<K extends string, S extends string> {
  kind: K;
  flowId: string;
  tenantId: string;
  slug: string;
  orgId: string;
  status: S;
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
  requestedAt: string;
  approvedAt: string | null;
  updatedAt: string;
  endedAt: string | null;
  endReason: string | null;
}

type Opening = E<string, { flow_id: string; tenant_id: string; slug: string; org_id: string }>;

/** What a flow's opening event sets alike for both kinds: who it is, and nothing decided, failed or ended yet. */
export const openedBy = (e: Opening) => ({
  flowId: e.data.flow_id,
  tenantId: e.data.tenant_id,
  slug: e.data.slug,
  orgId: e.data.org_id,
  requester: e.actor,
  approver: null,
  pendingStep: null,
  attempts: 0,
  nextRetryAt: null,
  lastError: null,
  requestedAt: e.at,
  approvedAt: null,
  updatedAt: e.at,
  endedAt: null,
  endReason: null,
});

/** The statuses both kinds of flow have, with the same meaning. */
export type SharedStatus = 'pending-approval' | 'failed' | 'paused' | 'rejected' | 'cancelled' | 'deprovisioned';
type AnyFlow = FlowBase<string, SharedStatus | (string & {})>;

export type E<T extends string, D> = { type: T; data: D; actor: string; at: string };

export type SharedEvent =
  | E<'FlowApproved', { approver: string }>
  | E<'StepFailed', { step: Step; reason: string; attempt: number; next_retry_at: string }>
  | E<'RetriesExhausted', { step: Step; reason: string; attempts: number }>
  | E<'FlowResumed', { step: Step }>
  | E<'FlowRejected', { reason: string }>
  | E<'FlowCancelled', { reason: string }>;

export const SHARED_EVENTS: Record<SharedEvent['type'], true> = {
  FlowApproved: true,
  StepFailed: true,
  RetriesExhausted: true,
  FlowResumed: true,
  FlowRejected: true,
  FlowCancelled: true,
};

/** An event builder for one union, stamped with the command's actor and time. */
export const eventsOf =
  <Ev extends { type: string; data: unknown }>() =>
  <T extends Ev['type']>(type: T, data: Extract<Ev, { type: T }>['data'], ctx: Context): Ev =>
    ({ type, data, actor: ctx.actor, at: ctx.now }) as unknown as Ev;

const shared = eventsOf<SharedEvent>();

export const MAX_ATTEMPTS_DEFAULT = 5;
export const MIN_REASON_LENGTH = 3;
export const MIN_JUSTIFICATION_LENGTH = 20;

const TERMINAL: string[] = ['rejected', 'cancelled', 'deprovisioned'];
export const isLive = (s: AnyFlow) => !TERMINAL.includes(s.status);

export function requireStatus<S extends string>(s: FlowBase<string, S>, allowed: S[], what: string): void {
  if (!allowed.includes(s.status)) throw new FlowConflict(`cannot ${what}: the flow is ${s.status}`);
}

export function requireStep(s: AnyFlow, next: Step | null, step: Step): void {
  if (next !== step) throw new FlowConflict(`step ${step} does not apply: the flow is ${s.status}`);
}

export function requireReason(reason: string): void {
  if (reason.trim().length < MIN_REASON_LENGTH)
    throw new Unprocessable(`reason: at least ${MIN_REASON_LENGTH} characters`);
}

export function requireJustification(justification: string): void {
  if (justification.trim().length < MIN_JUSTIFICATION_LENGTH) {
    throw new Unprocessable(`justification: at least ${MIN_JUSTIFICATION_LENGTH} characters`);
  }
}

/** A rejected or cancelled flow releases what it created; one whose retries ran out waits for a person. */
export function compensationStep(s: AnyFlow): Step | null {
  if (s.compensated || (s.pendingStep === 'compensate' && s.nextRetryAt === null)) return null;
  return 'compensate';
}

// Decisions both kinds take alike.

export function approve(s: AnyFlow, ctx: Context): SharedEvent[] {
  requireStatus<string>(s, ['pending-approval'], 'approve');
  if (ctx.actor === s.requester) throw new Forbidden('the approver must not be the requester');
  return [shared('FlowApproved', { approver: ctx.actor }, ctx)];
}

export function reject(s: AnyFlow, reason: string, ctx: Context): SharedEvent[] {
  requireReason(reason);
  requireStatus<string>(s, ['pending-approval'], 'reject');
  return [shared('FlowRejected', { reason }, ctx)];
}

export function cancel<S extends string>(s: FlowBase<string, S>, cancellable: S[], reason: string, ctx: Context) {
  requireReason(reason);
  requireStatus(s, cancellable, 'cancel');
  return [shared('FlowCancelled', { reason }, ctx)];
}

export function resume(s: AnyFlow, ctx: Context): SharedEvent[] {
  requireStatus<string>(s, ['paused'], 'resume');
  return [shared('FlowResumed', { step: s.pendingStep as Step }, ctx)];
}

export function failStep(
  s: AnyFlow,
  command: { step: Step; reason: string; nextRetryAt: string | null },
  ctx: Context,
  maxAttempts: number,
): SharedEvent[] {
  const { step, reason, nextRetryAt } = command;
  const attempt = s.attempts + 1;
  if (attempt >= maxAttempts || nextRetryAt === null) {
    return [shared('RetriesExhausted', { step, reason, attempts: attempt }, ctx)];
  }
  return [shared('StepFailed', { step, reason, attempt, next_retry_at: nextRetryAt }, ctx)];
}

// Evolutions both kinds share.

export function stepDone<F extends AnyFlow>(s: F, status: F['status'], at: string): F {
  return { ...s, status, pendingStep: null, attempts: 0, nextRetryAt: null, lastError: null, updatedAt: at };
}

/** A failed step backs off (`failed`), except compensation, which retries behind the flow's end state. */
export function stepFailed<F extends AnyFlow>(s: F, e: Extract<SharedEvent, { type: 'StepFailed' }>): F {
  return {
    ...s,
    status: e.data.step === 'compensate' ? s.status : 'failed',
    pendingStep: e.data.step,
    attempts: e.data.attempt,
    nextRetryAt: e.data.next_retry_at,
    lastError: e.data.reason,
    updatedAt: e.at,
  };
}

export function retriesExhausted<F extends AnyFlow>(s: F, e: Extract<SharedEvent, { type: 'RetriesExhausted' }>): F {
  return {
    ...s,
    status: e.data.step === 'compensate' ? s.status : 'paused',
    pendingStep: e.data.step,
    attempts: e.data.attempts,
    nextRetryAt: null,
    lastError: e.data.reason,
    updatedAt: e.at,
  };
}

export function ended<F extends AnyFlow>(
  s: F,
  e: Extract<SharedEvent, { type: 'FlowRejected' | 'FlowCancelled' }>,
  compensated: boolean,
): F {
  return {
    ...stepDone(s, e.type === 'FlowRejected' ? 'rejected' : 'cancelled', e.at),
    compensated,
    endedAt: e.at,
    endReason: e.data.reason,
  };
}

export function approved<F extends AnyFlow>(
  s: F,
  status: F['status'],
  e: Extract<SharedEvent, { type: 'FlowApproved' }>,
): F {
  return { ...stepDone(s, status, e.at), approver: e.data.approver, approvedAt: e.at };
}
