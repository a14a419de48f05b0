// The control plane's answers, as its API document (web/api/control-plane.ts) describes them.

import type { operations } from '../../../api/control-plane';

/** The JSON body of an operation's answer with that status, as the control plane's document describes it. */
type Answer<O extends keyof operations, S extends number> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

type ListableState = NonNullable<NonNullable<operations['TenantListController_list']['parameters']['query']>['state']>;
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
] as const satisfies readonly ListableState[];
