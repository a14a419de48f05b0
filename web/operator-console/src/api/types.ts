// The control plane's answers: from its API document (web/api/control-plane.ts), and a narrow local
// type for the tenant list (libs/tenancy list-tenants.ts) until the document describes it.

import type { operations } from '../../../api/control-plane';

export type FlowKind = 'onboard' | 'offboard';

export interface TenantListItem {
  slug: string;
  name: string | null;
  flow_kind: FlowKind;
  state: string;
  presentation: string;
  region: string | null;
  plan_tier: string | null;
  requested_by: string;
  requested_at: string;
  updated_at: string;
}

export interface TenantList {
  tenants: TenantListItem[];
  next_cursor: string | null;
}

/** The JSON body of an operation's answer with that status, as the control plane's document describes it. */
type Answer<O extends keyof operations, S extends number> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

export type TenantDetail = Answer<'TenantsController_detail', 200>;
export type OffboardDetail = NonNullable<TenantDetail['deprovision']>;
/** What every command on a flow answers: the flow it acted on. */
export type FlowSummary = Answer<'TenantsController_approve', 200>;
export type MintedToken = Answer<'TenantsController_mintToken', 201>;
export type TenantRequestBody = operations['TenantsController_request']['requestBody']['content']['application/json'];

/** Every state a listed tenant can show (the `?state=` filter). */
export const LISTABLE_STATES = [
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
  'deprovisioning',
  'deprovisioned',
] as const;
