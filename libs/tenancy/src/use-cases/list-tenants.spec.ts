import { DataSource } from 'typeorm';
import { Command, Context, decide, evolve, FlowState, OffboardState, OnboardState } from '../domain/flow';
import { ListTenants, ListTenantsHandler, tenantListView } from './list-tenants';

const NOW = '2026-11-22T10:00:00.000Z';
const alice: Context = { actor: 'alice', role: 'operator', now: NOW };
const bob: Context = { actor: 'bob', role: 'operator', now: NOW };
const engine: Context = { actor: 'system:flow-engine', role: 'system', now: NOW };

/** The state after these commands, each decided on the state before it, as the use cases do. */
function after(steps: [Command, Context][], from: FlowState | null = null): FlowState {
  let state = from;
  for (const [command, ctx] of steps) state = decide(command, state, ctx).reduce<FlowState | null>(evolve, state);
  return state as FlowState;
}

const requestOf = (n: number) =>
  after([
    [
      {
        type: 'RequestTenant',
        flowId: `0192a3b4-c5d6-7e8f-9a0b-00000000000${n}`,
        tenantId: `0192a3b4-c5d6-7e8f-9a0b-00000000000${n}`,
        orgId: `6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4${n}`,
        request: {
          slug: `acme-${n}`,
          name: 'Acme',
          owner_email: 'it@acme.test',
          region: 'local',
          plan_tier: 'team',
          isolation: 'shared',
          security_profile_target: 'monitor',
        },
      },
      alice,
    ],
  ]) as OnboardState;

const requested = requestOf(1);
const active = after(
  [
    [{ type: 'RequestApproval' }, engine],
    [{ type: 'ApproveFlow' }, bob],
    [{ type: 'PlaceInCell', cell: 'local-1', region: 'local' }, engine],
    [{ type: 'RecordDatabaseMigrated', schemaVersion: '1733443200000' }, engine],
    [{ type: 'RecordRoute', schemaVersion: '1733443200000' }, engine],
    [{ type: 'AwaitFirstCheckin' }, engine],
    [{ type: 'RecordFirstCheckin', machineId: 'laptop-1', checkedInAt: NOW }, engine],
  ],
  requestOf(2),
) as OnboardState;
const deprovision = after(
  [
    [
      {
        type: 'RequestDeprovision',
        flowId: '0192a3b4-c5d6-7e8f-9a0b-000000000009',
        justification: 'contract ended on 2026-11-01',
      },
      alice,
    ],
  ],
  active,
) as OffboardState;
// A flow recorded before its request was kept with it.
const withoutRequest = { ...requestOf(3), request: undefined } as unknown as OnboardState;

const rowOf = (onboard: OnboardState, offboard: OffboardState | null = null) => ({
  stream_id: onboard.flowId,
  created_at: new Date(onboard.requestedAt),
  onboard,
  offboard,
});

/** The control plane's database, answering the page query with these rows. */
const answering = (rows: unknown[]) => ({ query: async () => rows }) as unknown as DataSource;

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('GET /v1/tenants answers the documented list', () => {
  it('a last page: requested, offboarding, recorded without its request', async () => {
    const rows = [rowOf(requested), rowOf(active, deprovision), rowOf(withoutRequest)];
    const list = await new ListTenantsHandler(answering(rows)).execute(
      new ListTenants({ state: null, limit: 10, after: null }),
    );
    expect(list.tenants.map((t) => t.flow_kind)).toEqual(['onboard', 'offboard', 'onboard']);
    expect(list.next_cursor).toBeNull();
    expect(tenantListView.parse(list)).toEqual(list);
  });

  it('a page with more after it', async () => {
    const list = await new ListTenantsHandler(answering([rowOf(requested), rowOf(active)])).execute(
      new ListTenants({ state: null, limit: 1, after: null }),
    );
    expect(list.next_cursor).toEqual(expect.any(String));
    expect(tenantListView.parse(list)).toEqual(list);
  });
});
