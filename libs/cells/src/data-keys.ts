import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Placement } from './domain/placement';
import { SealingKey, sealingKeyOf } from './domain/sealed-value';
import { RouteDirectory } from './route-directory';

/**
 * What this process knows of an organization's data key: `none` (a self-service organization, whose
 * records stay plain), its `key`, or `erased` (the tenant is deprovisioned: its key is destroyed, or
 * about to be, and nothing of it is read or written again).
 */
export type DataKey = { kind: 'none' } | { kind: 'key'; key: SealingKey } | { kind: 'erased' };

const NONE: DataKey = { kind: 'none' };
const ERASED: DataKey = { kind: 'erased' };

/**
 * The tenants' data keys, read from the control plane's directory through `tenant_data_key(org)`
 * (the data-plane roles may call it, never read the table) and kept in memory. A key is asked once
 * per process; an organization is taken as keyless for good only once the route directory confirmed
 * it shared, so a new tenant's key is never missed. A `deprovisioned` route erases the entry at once,
 * before the control plane destroys the key itself.
 */
@Injectable()
export class DataKeys {
  private readonly known = new Map<string, DataKey>();

  constructor(
    private readonly shared: DataSource,
    private readonly directory: RouteDirectory,
  ) {
    directory.onChange((route) => {
      if (route.state === 'deprovisioned') this.known.set(route.org_id, ERASED);
      else this.known.delete(route.org_id);
    });
  }

  /** What is known without asking anyone; undefined when the organization is new to this process. */
  cached(orgId: string): DataKey | undefined {
    return this.known.get(orgId);
  }

  async keyOf(orgId: string): Promise<DataKey> {
    return (await this.keysOf([orgId])).get(orgId) as DataKey;
  }

  /** One read of the routes (if any organization is new) and one query per routed organization not cached yet. */
  async keysOf(orgIds: Iterable<string>): Promise<Map<string, DataKey>> {
    const answer = new Map<string, DataKey>();
    const unknown: string[] = [];
    for (const orgId of orgIds) {
      const known = this.known.get(orgId);
      if (known) answer.set(orgId, known);
      else unknown.push(orgId);
    }
    if (unknown.length === 0) return answer;
    const placements = await this.directory.placementsOf(unknown);
    await Promise.all(
      [...placements].map(async ([orgId, placement]) => {
        answer.set(orgId, await this.learn(orgId, placement));
      }),
    );
    return answer;
  }

  private async learn(orgId: string, placement: Placement): Promise<DataKey> {
    if (placement.kind === 'shared') {
      this.known.set(orgId, NONE);
      return NONE;
    }
    if (placement.kind === 'unavailable' && placement.reason === 'deprovisioned') {
      this.known.set(orgId, ERASED);
      return ERASED;
    }
    const [row] = await this.shared.query('SELECT tenant_data_key($1::uuid) AS key', [orgId]);
    const key = row?.key as Buffer | null;
    // A routed organization without a key (a tenant placed before keys existed) stays plain, and is
    // asked again next time rather than remembered: a key is never missed because of a stale answer.
    if (!key) return NONE;
    // Deprovisioned while the key was being read: erased wins.
    if (this.known.get(orgId) === ERASED) return ERASED;
    const found: DataKey = { kind: 'key', key: sealingKeyOf(key, orgId) };
    this.known.set(orgId, found);
    return found;
  }
}
