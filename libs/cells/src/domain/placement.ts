import { RouteChangedV1 } from '@agentwatch/contracts';

/** Why an organization's data cannot be reached now; each answers 503, never the shared database. */
export type UnavailableReason = 'not_migrated' | 'schema_behind' | 'deprovisioned';

export type Placement =
  | { kind: 'shared' }
  | { kind: 'tenant'; server: string; database: string }
  | { kind: 'unavailable'; reason: UnavailableReason };

export const SHARED: Placement = { kind: 'shared' };

/**
 * Where an organization's data lives, from its route (none: a self-service organization, in the
 * shared database). A route is followed only to a database that is migrated at least to the schema
 * this build needs; versions are migration timestamps, compared as numbers.
 */
export function placementOf(route: RouteChangedV1 | undefined, requiredSchemaVersion: string): Placement {
  if (!route) return SHARED;
  if (route.state === 'deprovisioned') return { kind: 'unavailable', reason: 'deprovisioned' };
  if (route.state !== 'active' || route.schema_version === null) return { kind: 'unavailable', reason: 'not_migrated' };
  if (BigInt(route.schema_version) < BigInt(requiredSchemaVersion)) {
    return { kind: 'unavailable', reason: 'schema_behind' };
  }
  return { kind: 'tenant', server: route.server, database: route.database };
}

/** The message each reason answers with (ingest adds a retry hint). */
export const UNAVAILABLE_MESSAGES: Record<UnavailableReason, string> = {
  not_migrated: "This organization's database is not ready yet",
  schema_behind: "This organization's database is being upgraded",
  deprovisioned: 'This organization has been deprovisioned',
};
