// The control plane's answers as libs/tenancy writes them (tenant-flows.ts, list-tenants.ts,
// journal-stream.ts). Narrow local types until web/api/control-plane.ts carries the response schemas.

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

export interface FlowDetail {
  flow_id: string;
  flow_kind: FlowKind;
  state: string;
  presentation: string;
  attempts: number;
  next_retry_at: string | null;
  last_error: string | null;
  failed_step: string | null;
  requester: string;
  approver: string | null;
  requested_at: string;
  approved_at: string | null;
  updated_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

export interface Placement {
  cell: string | null;
  region: string;
  database_name: string | null;
  schema_version: string | null;
}

export interface TenantDetail extends FlowDetail {
  slug: string;
  organization_id: string;
  name: string | null;
  owner_email: string | null;
  region: string | null;
  plan_tier: string | null;
  isolation: string | null;
  security_profile_target: string | null;
  dev_endpoints: number | null;
  server_endpoints: number | null;
  notes: string | null;
  database_name: string | null;
  cell: string | null;
  placement: Placement;
  activated_at: string | null;
  tokens_minted: number;
  deprovision: (FlowDetail & { justification: string }) | null;
  poll_url: string;
  stream_url: string;
}

/** What every command answers: the flow it acted on. */
export interface FlowSummary {
  slug: string;
  flow_id?: string;
  flow_kind?: FlowKind;
  state: string;
  presentation?: string;
  poll_url: string;
  stream_url: string;
}

export interface MintedToken {
  token: string;
  token_id: string;
  prefix: string;
  organization_id: string;
  slug: string;
  created_at: string;
}

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
