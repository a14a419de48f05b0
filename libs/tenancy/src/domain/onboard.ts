// The onboard flow (spec 002 §3): request → approval → placement → database → route → first
// check-in → active. Its state, its events and how they fold; its decisions are in onboard-decide.ts.

import { Step } from './commands';
import {
  approved,
  compensationStep,
  E,
  ended,
  FlowBase,
  openedBy,
  retriesExhausted,
  SHARED_EVENTS,
  SharedEvent,
  stepDone,
  stepFailed,
} from './flow-base';
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
export type OnboardStatus = (typeof ONBOARD_STATES)[number];

export interface OnboardState extends FlowBase<'onboard', OnboardStatus> {
  request: TenantRequest;
  routeRecorded: boolean;
  tokensMinted: number;
  activatedAt: string | null;
}

export type TenantRequested = E<
  'TenantRequested',
  { flow_id: string; tenant_id: string; slug: string; org_id: string; request: TenantRequest }
>;

export type OnboardEvent =
  | TenantRequested
  | SharedEvent
  | E<'ApprovalRequested', Record<string, never>>
  | E<'CellPlaced', { cell: string; region: string; database_name: string }>
  | E<'DatabaseMigrated', { database_name: string; schema_version: string }>
  | E<'RouteRecorded', { cell: string; database_name: string; schema_version: string }>
  | E<'FirstCheckinAwaited', Record<string, never>>
  | E<'FirstCheckinReceived', { machine_id: string | null; checked_in_at: string }>
  | E<'ResourcesReleased', { dropped_database: string | null; removed_route: boolean; revoked_tokens: number }>
  | E<'IngestTokenMinted', { token_id: string; prefix: string }>
  | E<'TenantDeprovisioned', { offboard_flow_id: string }>;

const ONBOARD_EVENTS: Record<OnboardEvent['type'], true> = {
  ...SHARED_EVENTS,
  TenantRequested: true,
  ApprovalRequested: true,
  CellPlaced: true,
  DatabaseMigrated: true,
  RouteRecorded: true,
  FirstCheckinAwaited: true,
  FirstCheckinReceived: true,
  ResourcesReleased: true,
  IngestTokenMinted: true,
  TenantDeprovisioned: true,
};

export const isOnboardEvent = (e: { type: string }): e is OnboardEvent => Object.hasOwn(ONBOARD_EVENTS, e.type);

/** Tokens may be minted once the database is real and migrated (spec §4). */
export const TOKEN_STATES: OnboardStatus[] = ['db-ready', 'routed', 'awaiting-first-checkin', 'active'];

const STEP_FROM: Partial<Record<OnboardStatus, Step>> = {
  requested: 'request-approval',
  provisioning: 'place',
  provisioned: 'create-database',
  'db-ready': 'route',
  routed: 'await-checkin',
};

export function nextOnboardStep(s: OnboardState): Step | null {
  if (s.status === 'failed') return s.pendingStep;
  if (s.status === 'rejected' || s.status === 'cancelled') return compensationStep(s);
  return STEP_FROM[s.status] ?? null;
}

/** The state a resumed or retried step starts from. */
function stateOfStep(s: OnboardState, step: Step): OnboardStatus {
  if (step === 'compensate') return s.status;
  const entry = Object.entries(STEP_FROM).find(([, v]) => v === step);
  return (entry?.[0] as OnboardStatus) ?? s.status;
}

export const databaseName = (slug: string) => `tenant_${slug}`;

function opened(e: TenantRequested): OnboardState {
  return {
    ...openedBy(e),
    kind: 'onboard',
    status: 'requested',
    request: e.data.request,
    placement: { cell: null, region: e.data.request.region, database_name: null, schema_version: null },
    compensated: true,
    routeRecorded: false,
    tokensMinted: 0,
    activatedAt: null,
  };
}

export function evolveOnboard(state: OnboardState | null, e: OnboardEvent): OnboardState {
  if (e.type === 'TenantRequested') return opened(e);
  if (state === null) throw new Error(`${e.type} cannot open a flow`);
  const s = state;
  switch (e.type) {
    case 'ApprovalRequested':
      return stepDone(s, 'pending-approval', e.at);
    case 'FlowApproved':
      return approved(s, 'provisioning', e);
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
      return stepFailed(s, e);
    case 'RetriesExhausted':
      return retriesExhausted(s, e);
    case 'FlowResumed':
      return stepDone(s, stateOfStep(s, e.data.step), e.at);
    case 'FlowRejected':
    case 'FlowCancelled':
      // Nothing to release unless a cell was taken or a token minted.
      return ended(s, e, s.placement.cell === null && s.tokensMinted === 0);
    case 'ResourcesReleased':
      return { ...s, compensated: true, pendingStep: null, attempts: 0, nextRetryAt: null, updatedAt: e.at };
    case 'IngestTokenMinted':
      return { ...s, tokensMinted: s.tokensMinted + 1, updatedAt: e.at };
    case 'TenantDeprovisioned':
      // Its database is dropped: the tenant no longer takes a seat of its cell (placement counts).
      return { ...stepDone(s, 'deprovisioned', e.at), compensated: true, endedAt: e.at, endReason: 'deprovisioned' };
    default: {
      const _exhaustive: never = e;
      return _exhaustive;
    }
  }
}
