// A provisioned tenant's route (docs/api/control-plane.md, "Cells"): where its data lives, published
// at every change of the tenant's lifecycle. Pure: the engine writes what this decides.

import { FlowConflict } from './errors';
import { Placement } from './flow-base';

export const ROUTE_STATES = ['provisioning', 'active', 'deprovisioned'] as const;
export type RouteState = (typeof ROUTE_STATES)[number];

export interface TenantRoute {
  org_id: string;
  slug: string;
  state: RouteState;
  cell: string;
  region: string;
  /** host:port of the cell's server; data-plane processes log in there with their own role. */
  server: string;
  database: string;
  /** Null unless the database is migrated and serving: a reader refuses to route a null version. */
  schema_version: string | null;
}

interface Tenant {
  orgId: string;
  slug: string;
  placement: Placement;
}

/**
 * The route of a placed tenant in `state`: `provisioning` (placed, nothing migrated yet) and
 * `deprovisioned` (its database is about to be dropped, or is) never carry a schema version;
 * `active` always does, and is refused for a database not known to be migrated (spec §3).
 */
export function routeOf(tenant: Tenant, state: RouteState, server: string): TenantRoute {
  const { cell, region, database_name, schema_version } = tenant.placement;
  if (cell === null || database_name === null) throw new FlowConflict(`${tenant.slug} is not placed: it has no route`);
  const base = { org_id: tenant.orgId, slug: tenant.slug, cell, region, server, database: database_name };
  switch (state) {
    case 'provisioning':
    case 'deprovisioned':
      return { ...base, state, schema_version: null };
    case 'active':
      if (schema_version === null) throw new FlowConflict('refusing to route a tenant whose schema_version is null');
      return { ...base, state, schema_version };
    default: {
      const _exhaustive: never = state;
      return _exhaustive;
    }
  }
}

/** An upgrade of an active route to the version its database now records; other routes stay as they are. */
export function upgradedRoute(route: TenantRoute, schemaVersion: string): TenantRoute | null {
  switch (route.state) {
    case 'active':
      return route.schema_version === schemaVersion ? null : { ...route, schema_version: schemaVersion };
    case 'provisioning':
    case 'deprovisioned':
      return null;
    default: {
      const _exhaustive: never = route.state;
      return _exhaustive;
    }
  }
}
