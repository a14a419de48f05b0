// Which commands the detail page offers for a tenant: the flow rules of the control plane
// (libs/tenancy's decide functions) as far as the page can tell from the detail, so it shows no
// action the control plane would refuse for its state; the role hides every write from a viewer.

import { canApprove, canWrite, isRequester, Role } from './roles';

export interface FlowFacts {
  state: string;
  requester: string;
}

export interface TenantFacts extends FlowFacts {
  deprovision: FlowFacts | null;
  /** Non-null schema_version: the database is real and migrated (db-ready, spec §3). */
  placement?: { schema_version: string | null } | null;
}

export interface CurrentFlow extends FlowFacts {
  kind: 'onboard' | 'offboard';
}

const ENDED = ['rejected', 'cancelled', 'deprovisioned'];
/** Tokens from db-ready on (spec §4). */
export const TOKEN_STATES = ['db-ready', 'routed', 'awaiting-first-checkin', 'active'];
const DEPROVISIONABLE = ['active', 'awaiting-first-checkin', 'routed', 'db-ready', 'paused', 'failed'];
/** An onboard flow is cancelled in any live state before `active`; a running tenant is deprovisioned. */
const ONBOARD_CANCELLABLE = [
  'requested',
  'pending-approval',
  'provisioning',
  'provisioned',
  'db-ready',
  'routed',
  'awaiting-first-checkin',
  'failed',
  'paused',
];
const OFFBOARD_CANCELLABLE = ['pending-approval', 'failed', 'paused'];

export const isEnded = (state: string) => ENDED.includes(state);

/** Approve, reject, cancel and resume act on the live offboard flow while there is one (spec §3). */
export function currentFlow(tenant: TenantFacts): CurrentFlow {
  const offboard = tenant.deprovision;
  if (offboard && !isEnded(offboard.state)) return { kind: 'offboard', ...offboard };
  return { kind: 'onboard', state: tenant.state, requester: tenant.requester };
}

export interface FlowActions {
  approve: boolean;
  reject: boolean;
  cancel: boolean;
  resume: boolean;
  mint: boolean;
  deprovision: boolean;
  /** The approval card: the current flow waits for a second operator. */
  awaitingApproval: boolean;
  /** The signed-in operator made the request waiting for approval. */
  ownRequest: boolean;
}

export function actionsFor(tenant: TenantFacts, role: Role, subject: string | undefined): FlowActions {
  const flow = currentFlow(tenant);
  const write = canWrite(role);
  const awaitingApproval = flow.state === 'pending-approval';
  const cancellable = flow.kind === 'onboard' ? ONBOARD_CANCELLABLE : OFFBOARD_CANCELLABLE;
  return {
    approve: awaitingApproval && canApprove(role, subject, flow.requester),
    reject: awaitingApproval && write,
    cancel: write && cancellable.includes(flow.state),
    resume: write && flow.state === 'paused',
    // Ingest tokens from db-ready on (spec §4): while the tenant lives and its database is migrated.
    mint: write && !isEnded(tenant.state) && tenant.placement?.schema_version != null,
    deprovision: write && flow.kind === 'onboard' && DEPROVISIONABLE.includes(tenant.state),
    awaitingApproval,
    ownRequest: awaitingApproval && isRequester(subject, flow.requester),
  };
}
