import { RecordRouter, RecordTarget } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RouteDirectory } from './route-directory';
import { TenantDatabases } from './tenant-databases';

/**
 * A consumer's answer to "where do this organization's records go", from its placement: the shared
 * database, its tenant database (through this process's pool there), held while its database is not
 * migrated to this build's schema, or erased once it is deprovisioned. A routed organization whose
 * database is unavailable never falls back to the shared database.
 */
@Injectable()
export class CellsRecordRouter extends RecordRouter {
  /** Organizations whose row this process has seen in their tenant database (by database key). */
  private readonly anchored = new Set<string>();

  constructor(
    private readonly directory: RouteDirectory,
    private readonly databases: TenantDatabases,
  ) {
    super();
  }

  async targetsOf(orgIds: string[]): Promise<Map<string, RecordTarget>> {
    const placements = await this.directory.placementsOf(orgIds);
    const targets = new Map<string, RecordTarget>();
    for (const [orgId, placement] of placements) {
      switch (placement.kind) {
        case 'shared':
          targets.set(orgId, { kind: 'shared' });
          break;
        case 'tenant': {
          const key = `${placement.server}/${placement.database}`;
          const dataSource = await this.databases.dataSourceFor(placement);
          await this.anchor(orgId, key, dataSource, placement.database);
          targets.set(orgId, { kind: 'tenant', key, dataSource });
          break;
        }
        case 'unavailable':
          targets.set(
            orgId,
            placement.reason === 'deprovisioned' ? { kind: 'erased' } : { kind: 'hold', reason: placement.reason },
          );
      }
    }
    return targets;
  }

  /**
   * The product schema's read models reference `organizations`: a tenant database holds its
   * organization's row (the name is the database's; the organization's identity lives in the shared
   * database). Written once per process and organization, before its first records.
   */
  private async anchor(orgId: string, key: string, dataSource: DataSource, database: string): Promise<void> {
    if (this.anchored.has(`${key}/${orgId}`)) return;
    await dataSource.query('INSERT INTO organizations (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
      orgId,
      database,
    ]);
    this.anchored.add(`${key}/${orgId}`);
  }
}
