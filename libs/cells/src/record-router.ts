import { RecordRouter, RecordTarget } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
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
        case 'tenant':
          targets.set(orgId, {
            kind: 'tenant',
            key: `${placement.server}/${placement.database}`,
            dataSource: await this.databases.dataSourceFor(placement),
          });
          break;
        case 'unavailable':
          targets.set(
            orgId,
            placement.reason === 'deprovisioned' ? { kind: 'erased' } : { kind: 'hold', reason: placement.reason },
          );
      }
    }
    return targets;
  }
}
