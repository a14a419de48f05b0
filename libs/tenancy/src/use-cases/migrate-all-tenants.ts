import { DataSource } from 'typeorm';
import { Cell } from '../domain/policy';
import { TenantRoute, upgradedRoute } from '../domain/route';
import { migrateTenantDatabase, serverOf } from '../engine/cell-databases';
import { lockedRoute, publishRoute, routesIn } from '../engine/route-directory';

export interface TenantMigration {
  slug: string;
  org_id: string;
  cell: string;
  database: string;
  from: string | null;
  to: string;
  /** false: the database was already at `to`, and its route said so. */
  published: boolean;
}

/**
 * The upgrade of every provisioned tenant (`agentwatch migrate --all-tenants`): for each active route,
 * the product migrations its database lacks run on its cell, then the route takes the version the
 * database now records and is published again (outbox, same transaction). Running it again changes
 * nothing and publishes nothing. A route deprovisioned meanwhile is left as it is. The cell's server
 * is refreshed from CONTROL_CELLS too, so a route written before servers were recorded gets one.
 */
export async function migrateAllTenants(
  dataSource: DataSource,
  cells: Cell[],
  rolePassword: string | null,
  progress: (m: TenantMigration) => void = () => {},
): Promise<TenantMigration[]> {
  const done: TenantMigration[] = [];
  for (const { tenantId, route } of await routesIn(dataSource.manager, 'active')) {
    const cell = cells.find((c) => c.id === route.cell);
    if (!cell) throw new Error(`route of ${route.slug}: cell ${route.cell} is not in CONTROL_CELLS`);
    const version = await migrateTenantDatabase(cell, route.database, rolePassword);
    const published = await dataSource.transaction(async (tx) => {
      const current = await lockedRoute(tx, route.org_id);
      if (current === null) return false;
      const where: TenantRoute = { ...current, region: cell.region, server: serverOf(cell) };
      const moved = where.server !== current.server || where.region !== current.region;
      const next = upgradedRoute(where, version) ?? (moved && where.state === 'active' ? where : null);
      if (next === null) return false;
      await publishRoute(tx, tenantId, next, new Date().toISOString());
      return true;
    });
    const migration = {
      slug: route.slug,
      org_id: route.org_id,
      cell: cell.id,
      database: route.database,
      from: route.schema_version,
      to: version,
      published,
    };
    progress(migration);
    done.push(migration);
  }
  return done;
}
