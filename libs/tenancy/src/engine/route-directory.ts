import { randomBytes } from 'node:crypto';
import { ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS } from '@agentwatch/contracts';
import { CONTROL_PLANE_ERASES, Queryable } from '@agentwatch/db';
import { v7 as uuidv7 } from 'uuid';
import { TenantRoute } from '../domain/route';
import { enqueue } from '../journal/journal';

/**
 * Writes a tenant's route and, in the same transaction, its `tenancy.routes.v1` record through the
 * outbox (key: the organization id; the topic is compacted, so its last record per org is the route).
 */
export async function publishRoute(tx: Queryable, tenantId: string, route: TenantRoute, at: string): Promise<void> {
  await tx.query(
    `INSERT INTO tenancy_routes
       (org_id, slug, tenant_id, state, cell, region, server, database_name, schema_version, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (org_id) DO UPDATE SET state = EXCLUDED.state, cell = EXCLUDED.cell, region = EXCLUDED.region,
       server = EXCLUDED.server, database_name = EXCLUDED.database_name,
       schema_version = EXCLUDED.schema_version, updated_at = EXCLUDED.updated_at`,
    [
      route.org_id,
      route.slug,
      tenantId,
      route.state,
      route.cell,
      route.region,
      route.server,
      route.database,
      route.schema_version,
      at,
    ],
  );
  const payload: RouteChangedV1 = { ...route, at };
  await enqueue(tx, TOPICS.tenancyRoutes.name, route.org_id, uuidv7(), ROUTE_CHANGED_TYPE, route.org_id, payload);
}

interface RouteRow {
  org_id: string;
  slug: string;
  tenant_id: string;
  state: TenantRoute['state'];
  cell: string;
  region: string;
  server: string;
  database_name: string;
  schema_version: string | null;
}

const toRoute = (r: RouteRow): TenantRoute => ({
  org_id: r.org_id,
  slug: r.slug,
  state: r.state,
  cell: r.cell,
  region: r.region,
  server: r.server,
  database: r.database_name,
  schema_version: r.schema_version,
});

/** The routes in `state`, oldest first, with the tenant each belongs to. */
export async function routesIn(
  q: Queryable,
  state: TenantRoute['state'],
): Promise<{ tenantId: string; route: TenantRoute }[]> {
  const rows: RouteRow[] = await q.query('SELECT * FROM tenancy_routes WHERE state = $1 ORDER BY created_at', [state]);
  return rows.map((r) => ({ tenantId: r.tenant_id, route: toRoute(r) }));
}

/** Locks one route for an update (an upgrade racing a deprovisioning loses to it, or waits). */
export async function lockedRoute(q: Queryable, orgId: string): Promise<TenantRoute | null> {
  const [row]: RouteRow[] = await q.query('SELECT * FROM tenancy_routes WHERE org_id = $1 FOR UPDATE', [orgId]);
  return row ? toRoute(row) : null;
}

/** A random 256-bit data key for a tenant placed now; placing again (a retried step) keeps the first. */
export async function createDataKey(tx: Queryable, orgId: string): Promise<void> {
  await tx.query('INSERT INTO tenancy_data_keys (org_id, key) VALUES ($1, $2) ON CONFLICT (org_id) DO NOTHING', [
    orgId,
    randomBytes(32),
  ]);
}

/** Destroys a tenant's data key: its sealed records on every topic become unreadable. */
export async function destroyDataKey(tx: Queryable, orgId: string): Promise<boolean> {
  const [, deleted] = await tx.query('DELETE FROM tenancy_data_keys WHERE org_id = $1', [orgId]);
  return Number(deleted) > 0;
}

/**
 * Deletes a tenant's identity from the shared database: its credentials (deploy tokens, projected
 * ingest tokens, machines and their service tokens, API keys), memberships, organization, rate-limit
 * windows, and the control plane's own token hashes and check-in. Row-level security applies to the
 * control plane's role, so the transaction acts as the organization. Running it again deletes nothing.
 * Returns how many rows each table lost.
 */
export async function eraseIdentity(tx: Queryable, orgId: string): Promise<Record<string, number>> {
  await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
  const erased: Record<string, number> = {};
  const remove = async (table: string, where: string) => {
    const [, deleted] = await tx.query(`DELETE FROM ${table} WHERE ${where}`, [orgId]);
    erased[table] = Number(deleted ?? 0);
  };
  // Children before the organization they reference.
  for (const [table, column] of Object.entries(CONTROL_PLANE_ERASES)) {
    if (table === 'organizations') continue;
    await remove(table, column === 'key' ? `strpos(${column}, $1::text) > 0` : `${column} = $1`);
  }
  await remove('organizations', `${CONTROL_PLANE_ERASES.organizations} = $1`);
  await remove('tenancy_tokens', 'org_id = $1');
  await remove('tenancy_checkins', 'org_id = $1');
  return erased;
}
