import { FlowConflict } from './errors';
import { routeOf, TenantRoute, upgradedRoute } from './route';

const tenant = {
  orgId: '0b7c9a4e-2f1d-4c8a-9e6b-3d5f7a1c2e4b',
  slug: 'acme',
  placement: { cell: 'cell-2', region: 'eu-2', database_name: 'tenant_acme', schema_version: '1733270400000' },
};
const where = { org_id: tenant.orgId, slug: 'acme', cell: 'cell-2', region: 'eu-2', server: 'db2:5433' };

describe('a tenant route', () => {
  it('is published provisioning and deprovisioned without a schema version, active with its own', () => {
    expect(routeOf(tenant, 'provisioning', 'db2:5433')).toEqual({
      ...where,
      state: 'provisioning',
      database: 'tenant_acme',
      schema_version: null,
    });
    expect(routeOf(tenant, 'active', 'db2:5433')).toMatchObject({ state: 'active', schema_version: '1733270400000' });
    expect(routeOf(tenant, 'deprovisioned', 'db2:5433')).toMatchObject({
      state: 'deprovisioned',
      schema_version: null,
    });
  });

  it('refuses to activate a database not known to be migrated, or a tenant not placed', () => {
    const unmigrated = { ...tenant, placement: { ...tenant.placement, schema_version: null } };
    expect(() => routeOf(unmigrated, 'active', 'db2:5433')).toThrow(FlowConflict);
    const unplaced = { ...tenant, placement: { ...tenant.placement, cell: null } };
    expect(() => routeOf(unplaced, 'provisioning', 'db2:5433')).toThrow(/not placed/);
  });

  it('is upgraded only while active, and only to a different version', () => {
    const active = routeOf(tenant, 'active', 'db2:5433') as TenantRoute;
    expect(upgradedRoute(active, '1733400000000')).toMatchObject({ state: 'active', schema_version: '1733400000000' });
    expect(upgradedRoute(active, '1733270400000')).toBeNull();
    expect(upgradedRoute(routeOf(tenant, 'deprovisioned', 'db2:5433'), '1733400000000')).toBeNull();
    expect(upgradedRoute(routeOf(tenant, 'provisioning', 'db2:5433'), '1733400000000')).toBeNull();
  });
});
