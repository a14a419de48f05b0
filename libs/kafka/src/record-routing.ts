import { DataSource } from 'typeorm';

// Where each record of a batch is written: the runner asks a RecordRouter (implemented by libs/cells
// from the route directory; libs/kafka may not import it) for the targets of the batch's organizations
// and splits the batch by target with the pure functions below.

/** Where one organization's records go now. */
export type RecordTarget =
  /** The database the app already has (a self-service organization's data lives there). */
  | { kind: 'shared' }
  /** Its own database on its cell: `key` names it in logs and groups its records into one transaction. */
  | { kind: 'tenant'; key: string; dataSource: DataSource }
  /**
   * Its database cannot be written now (not migrated yet, being upgraded): written nowhere, and the
   * partition's position stays before it until the route allows it.
   */
  | { kind: 'hold'; reason: string }
  /** Deprovisioned: its records are erased, skipped and counted. */
  | { kind: 'erased' };

// An abstract class so that it doubles as the Nest injection token.
export abstract class RecordRouter {
  /** The target of each organization of a batch (every id given has an entry). */
  abstract targetsOf(orgIds: string[]): Promise<Map<string, RecordTarget>>;
}

/**
 * Whose rows a projection writes: `routed` rows belong to the organization and follow its route (read
 * models); `shared` rows always live in the shared database (identity rows such as deploy tokens).
 */
export type MemberRouting = 'routed' | 'shared';

export interface TenantPart<R> {
  key: string;
  dataSource: DataSource;
  /** The records of the organizations living in that database, ascending. */
  records: R[];
}

export interface RoutedBatch<R> {
  /**
   * Every record kept, ascending: up to the first held one, without erased ones. The shared
   * database's transaction moves its checkpoint over them.
   */
  kept: R[];
  /** Records of organizations in the shared database (routed members apply these there). */
  shared: R[];
  /** Records by tenant database, in the order each database was first met. */
  tenants: TenantPart<R>[];
  erased: R[];
  /** The first held record: the batch ends before it, and the partition is read again from it. */
  held: { offset: string; orgId: string; reason: string } | null;
  /** The checkpoint after the batch: the held record's offset, or the batch's own end. */
  next: string;
}

/**
 * Splits a batch (ascending) by its organizations' targets. A held organization ends the batch at
 * its first record, for every member: the partition's position is one offset, and nothing past a
 * record may be committed before that record is.
 */
export function routeBatch<R extends { offset: string; orgId: string }>(
  records: R[],
  targets: Map<string, RecordTarget>,
  next: string,
): RoutedBatch<R> {
  const batch: RoutedBatch<R> = { kept: [], shared: [], tenants: [], erased: [], held: null, next };
  const tenants = new Map<string, TenantPart<R>>();
  for (const record of records) {
    const target = targets.get(record.orgId);
    if (!target) throw new Error(`no target for organization ${record.orgId}`);
    if (target.kind === 'hold') {
      batch.held = { offset: record.offset, orgId: record.orgId, reason: target.reason };
      batch.next = record.offset;
      break;
    }
    if (target.kind === 'erased') {
      batch.erased.push(record);
      continue;
    }
    batch.kept.push(record);
    if (target.kind === 'shared') {
      batch.shared.push(record);
      continue;
    }
    let part = tenants.get(target.key);
    if (!part) {
      part = { key: target.key, dataSource: target.dataSource, records: [] };
      tenants.set(target.key, part);
      batch.tenants.push(part);
    }
    part.records.push(record);
  }
  return batch;
}

/**
 * What a member applies in the shared database: a routed member only the shared organizations'
 * records, a shared member every record kept (a tenant's identity rows live there too).
 */
export const sharedRecordsOf = <R>(
  routing: MemberRouting | undefined,
  batch: Pick<RoutedBatch<R>, 'kept' | 'shared'>,
) => (routing === 'shared' ? batch.kept : batch.shared);

/**
 * The targets of a batch's organizations. Without a router everything is shared; a runner of shared
 * members alone writes every organization's rows there (identity rows), except an erased one's.
 */
export async function targetsOf(
  router: RecordRouter | undefined,
  members: { routing?: MemberRouting }[],
  records: { orgId: string }[],
): Promise<Map<string, RecordTarget>> {
  const orgs = [...new Set(records.map((r) => r.orgId))];
  const shared: RecordTarget = { kind: 'shared' };
  if (!router || orgs.length === 0) return new Map(orgs.map((org) => [org, shared]));
  const targets = await router.targetsOf(orgs);
  if (members.some((m) => m.routing !== 'shared')) return targets;
  return new Map(orgs.map((org) => [org, targets.get(org)?.kind === 'erased' ? { kind: 'erased' } : shared]));
}
