import { CONTROL_PLANE_PROJECTIONS, TENANCY_PROJECTIONS } from './tenancy.module';

// Asynchronous commit (ProjectionDefinition.derivedOnly) is safe only for what a replay rebuilds.
// These write records of their own: the check-in consumer appends to the flows' journal, and the
// tokens projection writes organizations and deploy tokens that no replay rebuilds.
describe('tenancy projections', () => {
  it.each([
    ['control plane', CONTROL_PLANE_PROJECTIONS],
    ['projector', TENANCY_PROJECTIONS],
  ])('in the %s wait for the WAL flush', (_, projections) => {
    expect(projections.length).toBeGreaterThan(0);
    for (const projection of projections) expect(projection.derivedOnly).not.toBe(true);
  });
});
