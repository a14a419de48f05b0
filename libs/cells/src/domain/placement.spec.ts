import { RouteChangedV1 } from '@agentwatch/contracts';
import { placementOf } from './placement';

const route = (overrides: Partial<RouteChangedV1> = {}): RouteChangedV1 => ({
  org_id: '0b5b8c62-4a1c-4f55-9d53-3f1a0f0f9c01',
  slug: 'acme',
  state: 'active',
  cell: 'cell-2',
  region: 'eu-2',
  server: '127.0.0.1:5433',
  database: 'tenant_acme',
  schema_version: '1733270400000',
  at: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

describe('placementOf', () => {
  it('puts an organization without a route in the shared database', () => {
    expect(placementOf(undefined, '1733270400000')).toEqual({ kind: 'shared' });
  });

  it('follows an active route migrated to the version this build needs, or newer', () => {
    expect(placementOf(route(), '1733270400000')).toEqual({
      kind: 'tenant',
      server: '127.0.0.1:5433',
      database: 'tenant_acme',
    });
    expect(placementOf(route({ schema_version: '1733270400001' }), '1733270400000').kind).toBe('tenant');
  });

  it('refuses a route whose schema_version is null, whatever its state says', () => {
    expect(placementOf(route({ schema_version: null }), '1')).toEqual({ kind: 'unavailable', reason: 'not_migrated' });
    expect(placementOf(route({ state: 'provisioning' }), '1')).toEqual({
      kind: 'unavailable',
      reason: 'not_migrated',
    });
  });

  it('refuses a database behind the schema this build needs, comparing versions as numbers', () => {
    expect(placementOf(route({ schema_version: '999999999999' }), '1733270400000')).toEqual({
      kind: 'unavailable',
      reason: 'schema_behind',
    });
  });

  it('never routes to a deprovisioned tenant', () => {
    expect(placementOf(route({ state: 'deprovisioned', schema_version: null }), '1')).toEqual({
      kind: 'unavailable',
      reason: 'deprovisioned',
    });
  });
});
