/// <reference types="jest" />
import { actionsFor, currentFlow, TenantFacts } from './flow-actions';

const tenant = (state: string, deprovision: TenantFacts['deprovision'] = null): TenantFacts => ({
  state,
  requester: 'alice',
  deprovision,
});

describe('currentFlow', () => {
  it('is the live offboard flow while a deprovision is open, else the onboard flow', () => {
    expect(currentFlow(tenant('active', { state: 'pending-approval', requester: 'bob' }))).toEqual({
      kind: 'offboard',
      state: 'pending-approval',
      requester: 'bob',
    });
    expect(currentFlow(tenant('active', { state: 'rejected', requester: 'bob' })).kind).toBe('onboard');
  });
});

describe('actionsFor', () => {
  it('lets another operator approve or reject a pending request', () => {
    expect(actionsFor(tenant('pending-approval'), 'operator', 'bob')).toMatchObject({
      approve: true,
      reject: true,
      cancel: true,
      awaitingApproval: true,
      ownRequest: false,
    });
  });

  it('never offers the requester an approve', () => {
    expect(actionsFor(tenant('pending-approval'), 'operator', 'alice')).toMatchObject({
      approve: false,
      reject: true,
      ownRequest: true,
    });
  });

  it('offers a viewer no write at all', () => {
    for (const state of ['pending-approval', 'paused', 'active', 'db-ready']) {
      expect(actionsFor(tenant(state), 'viewer', 'bob')).toMatchObject({
        approve: false,
        reject: false,
        cancel: false,
        resume: false,
        mint: false,
        deprovision: false,
      });
    }
  });

  it('resumes only a paused flow', () => {
    expect(actionsFor(tenant('paused'), 'operator', 'bob').resume).toBe(true);
    expect(actionsFor(tenant('failed'), 'operator', 'bob').resume).toBe(false);
  });

  it('deprovisions a tenant from db-ready on, not one already being deprovisioned', () => {
    expect(actionsFor(tenant('active'), 'operator', 'bob')).toMatchObject({ deprovision: true, cancel: false });
    expect(actionsFor(tenant('provisioning'), 'operator', 'bob').deprovision).toBe(false);
    const offboarding = tenant('active', { state: 'pending-approval', requester: 'bob' });
    expect(actionsFor(offboarding, 'operator', 'carol')).toMatchObject({ deprovision: false, approve: true });
    expect(actionsFor(offboarding, 'operator', 'bob')).toMatchObject({ approve: false, ownRequest: true });
  });

  it('cancels an offboard flow only before it runs', () => {
    const running = tenant('active', { state: 'deprovisioning', requester: 'bob' });
    expect(actionsFor(running, 'operator', 'carol').cancel).toBe(false);
  });

  it('offers mint from db-ready on (a migrated database) while the tenant lives', () => {
    const migrated = { placement: { schema_version: '1733443200000' } };
    expect(actionsFor(tenant('pending-approval'), 'operator', 'bob').mint).toBe(false);
    expect(actionsFor({ ...tenant('provisioned'), placement: { schema_version: null } }, 'operator', 'bob').mint).toBe(
      false,
    );
    expect(actionsFor({ ...tenant('db-ready'), ...migrated }, 'operator', 'bob').mint).toBe(true);
    expect(actionsFor({ ...tenant('paused'), ...migrated }, 'operator', 'bob').mint).toBe(true);
    expect(actionsFor({ ...tenant('cancelled'), ...migrated }, 'operator', 'bob').mint).toBe(false);
    expect(actionsFor({ ...tenant('db-ready'), ...migrated }, 'viewer', 'vera').mint).toBe(false);
  });
});
