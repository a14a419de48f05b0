import { Command, Context, decide, evolve, FlowState, OffboardState, OnboardState } from './domain/flow';
import { FlowRow } from './journal/journal';
import { flowSummary, flowSummaryView, tenantDetail, tenantDetailView } from './tenant-flows';

const NOW = '2026-11-22T10:00:00.000Z';
const alice: Context = { actor: 'alice', role: 'operator', now: NOW };
const bob: Context = { actor: 'bob', role: 'operator', now: NOW };
const engine: Context = { actor: 'system:flow-engine', role: 'system', now: NOW };
const ONBOARD = '0192a3b4-c5d6-7e8f-9a0b-000000000001';
const OFFBOARD = '0192a3b4-c5d6-7e8f-9a0b-000000000002';

/** The state after these commands, each decided on the state before it, as the use cases do. */
function after(steps: [Command, Context][], from: FlowState | null = null): FlowState {
  let state = from;
  for (const [command, ctx] of steps) state = decide(command, state, ctx).reduce<FlowState | null>(evolve, state);
  return state as FlowState;
}

const request = {
  slug: 'acme',
  name: 'Acme',
  owner_email: 'it@acme.test',
  region: 'local',
  plan_tier: 'team' as const,
  isolation: 'shared' as const,
  security_profile_target: 'monitor' as const,
};
const requested = after([
  [
    {
      type: 'RequestTenant',
      flowId: ONBOARD,
      tenantId: ONBOARD,
      orgId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      request,
    },
    alice,
  ],
]);
const backingOff = after(
  [
    [{ type: 'RequestApproval' }, engine],
    [{ type: 'ApproveFlow' }, bob],
    [{ type: 'PlaceInCell', cell: 'local-1', region: 'local' }, engine],
    [{ type: 'FailStep', step: 'create-database', reason: 'connection refused', nextRetryAt: NOW }, engine],
  ],
  requested,
);
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
  requested,
);
const deprovision = after(
  [[{ type: 'RequestDeprovision', flowId: OFFBOARD, justification: 'contract ended on 2026-11-01' }, alice]],
  active,
);

const rowOf = <S extends FlowState>(detail: S): FlowRow<S> => ({
  stream_id: detail.flowId,
  tenant_id: detail.tenantId,
  kind: detail.kind,
  slug: detail.slug,
  org_id: detail.orgId,
  state: detail.status,
  version: 1,
  live: true,
  detail,
});

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('the documented tenant answers', () => {
  it.each([
    ['requested', requested],
    ['failed', backingOff],
    ['active', active],
    ['pending-approval', deprovision],
  ])('an operator command answers the summary of the flow it acted on: %s', (status, state) => {
    const summary = flowSummary(state);
    expect(summary.state).toBe(status);
    expect(flowSummaryView.parse(summary)).toEqual(summary);
  });

  it.each([
    ['requested, without a deprovision', requested, null],
    ['backing off a failed step', backingOff, null],
    ['active, with a deprovision pending', active, deprovision],
  ])('GET /v1/tenants/{slug}: %s', (_, onboard, offboard) => {
    const detail = tenantDetail(rowOf(onboard as OnboardState), offboard ? rowOf(offboard as OffboardState) : null);
    expect(tenantDetailView.parse(detail)).toEqual(detail);
  });
});
