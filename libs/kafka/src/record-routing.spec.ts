import { DataSource } from 'typeorm';
import { RecordRouter, RecordTarget, routeBatch, sharedRecordsOf, targetsOf } from './record-routing';

// Stand-ins for two tenant databases' pools: routeBatch only groups by key and hands them on.
const poolA = {} as DataSource;
const poolB = {} as DataSource;

const targets = new Map<string, RecordTarget>([
  ['shared-org', { kind: 'shared' }],
  ['tenant-a', { kind: 'tenant', key: 'cell-1/tenant_a', dataSource: poolA }],
  ['tenant-b', { kind: 'tenant', key: 'cell-2/tenant_b', dataSource: poolB }],
  ['gone', { kind: 'erased' }],
  ['migrating', { kind: 'hold', reason: 'not_migrated' }],
]);

const batch = (...orgs: string[]) => orgs.map((orgId, i) => ({ orgId, offset: String(10 + i) }));
const offsets = (records: { offset: string }[]) => records.map((r) => r.offset);

describe('routeBatch', () => {
  it('splits a batch by database, each part ascending, and ends it where the batch does', () => {
    const routed = routeBatch(batch('tenant-a', 'shared-org', 'tenant-b', 'tenant-a', 'shared-org'), targets, '15');
    expect(offsets(routed.shared)).toEqual(['11', '14']);
    expect(routed.tenants.map((t) => [t.key, offsets(t.records)])).toEqual([
      ['cell-1/tenant_a', ['10', '13']],
      ['cell-2/tenant_b', ['12']],
    ]);
    expect(routed.tenants[0].dataSource).toBe(poolA);
    expect(offsets(routed.kept)).toEqual(['10', '11', '12', '13', '14']);
    expect(routed.held).toBeNull();
    expect(routed.next).toBe('15');
  });

  it("skips a deprovisioned organization's records without writing them anywhere", () => {
    const routed = routeBatch(batch('gone', 'shared-org', 'gone'), targets, '13');
    expect(offsets(routed.erased)).toEqual(['10', '12']);
    expect(offsets(routed.kept)).toEqual(['11']);
    expect(routed.tenants).toEqual([]);
    expect(routed.next).toBe('13');
  });

  it('ends the batch at the first held record, for every database: nothing past it is kept', () => {
    const routed = routeBatch(batch('tenant-a', 'shared-org', 'migrating', 'tenant-b', 'shared-org'), targets, '15');
    expect(routed.held).toEqual({ offset: '12', orgId: 'migrating', reason: 'not_migrated' });
    expect(routed.next).toBe('12');
    expect(offsets(routed.kept)).toEqual(['10', '11']);
    expect(routed.tenants.map((t) => t.key)).toEqual(['cell-1/tenant_a']);
  });

  it('holds from the first record when the batch starts with a held one', () => {
    const routed = routeBatch(batch('migrating', 'shared-org'), targets, '12');
    expect(routed.next).toBe('10');
    expect(routed.kept).toEqual([]);
  });

  it('refuses a record whose organization the router gave no target', () => {
    expect(() => routeBatch(batch('unknown'), targets, '11')).toThrow('no target for organization unknown');
  });

  it('has routed members apply the shared organizations here, shared members every record kept', () => {
    const routed = routeBatch(batch('tenant-a', 'shared-org'), targets, '12');
    expect(offsets(sharedRecordsOf('routed', routed))).toEqual(['11']);
    expect(offsets(sharedRecordsOf(undefined, routed))).toEqual(['11']);
    expect(offsets(sharedRecordsOf('shared', routed))).toEqual(['10', '11']);
  });
});

describe('targetsOf', () => {
  class FixedRouter extends RecordRouter {
    asked: string[][] = [];
    async targetsOf(orgIds: string[]) {
      this.asked.push(orgIds);
      return new Map(orgIds.map((org) => [org, targets.get(org) as RecordTarget]));
    }
  }
  const records = batch('tenant-a', 'shared-org', 'tenant-a', 'gone', 'migrating');

  it('asks the router once per batch, for each organization once, and follows its answer for routed members', async () => {
    const router = new FixedRouter();
    const routed = await targetsOf(router, [{ routing: 'shared' }, {}], records);
    expect(router.asked).toEqual([['tenant-a', 'shared-org', 'gone', 'migrating']]);
    expect(routed.get('tenant-a')).toBe(targets.get('tenant-a'));
    expect(routed.get('migrating')).toEqual({ kind: 'hold', reason: 'not_migrated' });
  });

  it("writes every organization's rows in the shared database for shared members alone, but an erased one's nowhere", async () => {
    const routed = await targetsOf(new FixedRouter(), [{ routing: 'shared' }], records);
    expect(Object.fromEntries(routed)).toEqual({
      'tenant-a': { kind: 'shared' },
      'shared-org': { kind: 'shared' },
      gone: { kind: 'erased' },
      migrating: { kind: 'shared' },
    });
  });

  it('routes nothing without a router', async () => {
    const routed = await targetsOf(undefined, [{}], records);
    expect([...routed.values()].every((t) => t.kind === 'shared')).toBe(true);
    expect(routed.size).toBe(4);
  });
});
