import { z } from 'zod';
import { recordedDateTime, recordedUuid } from './common';

/**
 * Payload of `tenancy.flows.v1`: one journal event of a tenant flow, relayed through the control
 * plane's transactional outbox. Key: the slug (per-slug order). `data` never holds a raw token.
 */
export const flowEventRecordedV1 = z.object({
  position: z.number().int(),
  flow_id: recordedUuid,
  flow_kind: z.enum(['onboard', 'offboard']),
  tenant_id: recordedUuid,
  slug: z.string(),
  version: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  actor: z.string(),
  recorded_at: recordedDateTime,
});
export type FlowEventRecordedV1 = z.infer<typeof flowEventRecordedV1>;
export const FLOW_EVENT_RECORDED_TYPE = 'agentwatch.tenancy.flow-event.v1';

/**
 * Payload of `tenancy.tokens.v1`: an ingest token minted for (or revoked from) a tenant's
 * organization. Only the SHA-256 hash and a short prefix travel; the raw token never does.
 * Key: the organization id.
 */
export const ingestTokenChangedV1 = z.object({
  action: z.enum(['minted', 'revoked']),
  token_id: recordedUuid,
  org_id: recordedUuid,
  slug: z.string(),
  organization_name: z.string(),
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
  prefix: z.string(),
  /** The tenant database's schema version when minted; null would mean "not migrated" and is refused. */
  schema_version: z.string().nullable(),
  at: recordedDateTime,
});
export type IngestTokenChangedV1 = z.infer<typeof ingestTokenChangedV1>;
export const INGEST_TOKEN_CHANGED_TYPE = 'agentwatch.tenancy.ingest-token.v1';

/**
 * Payload of `tenancy.routes.v1` (compacted; key: the organization id): where a provisioned tenant's
 * data lives. The control plane publishes a route as soon as the tenant is placed, before any of its
 * credentials exists, and again at every change. An organization without a route is a self-service
 * one: its data lives in the shared database of the default cell.
 */
export const routeChangedV1 = z.object({
  org_id: recordedUuid,
  slug: z.string(),
  /**
   * `provisioning`: placed, database not ready; `active`: routable when `schema_version` is not null;
   * `deprovisioned`: the tenant is gone (its data, database and key with it), never routable again.
   */
  state: z.enum(['provisioning', 'active', 'deprovisioned']),
  cell: z.string(),
  region: z.string(),
  /** `host:port` of the cell's Postgres server, without credentials: readers log in with their own role. */
  server: z.string(),
  database: z.string(),
  /** The newest product migration the tenant database records; null: not migrated yet, or dropped. */
  schema_version: z.string().nullable(),
  at: recordedDateTime,
});
export type RouteChangedV1 = z.infer<typeof routeChangedV1>;
export const ROUTE_CHANGED_TYPE = 'agentwatch.tenancy.route.v1';
