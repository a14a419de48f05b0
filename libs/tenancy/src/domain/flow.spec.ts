import {
  Command,
  Context,
  decide,
  dueAt,
  evolve,
  FlowConflict,
  FlowEvent,
  FlowState,
  Forbidden,
  fold,
  isLive,
  NoSuchFlow,
  nextStep,
  presentation,
  Unprocessable,
} from './flow';
import { chooseCell, retryDelayMs } from './policy';
import { parseTenantRequest } from './tenant-request';

const NOW = '2026-11-22T10:00:00.000Z';
const ORG = '0b7c9a4e-2f1d-4c8a-9e6b-3d5f7a1c2e4b';
const alice: Context = { actor: 'alice', role: 'operator', now: NOW };
const bob: Context = { actor: 'bob', role: 'operator', now: NOW };
const viewer: Context = { actor: 'vera', role: 'viewer', now: NOW };
const engine: Context = { actor: 'system:flow-engine', role: 'system', now: NOW };

const request = {
  slug: 'acme',
  name: 'Acme',
  owner_email: 'it@acme.test',
  region: 'local',
  plan_tier: 'team' as const,
  isolation: 'shared' as const,
  security_profile_target: 'monitor' as const,
};
const ev = (type: string, data: Record<string, unknown> = {}, actor = 'system:flow-engine'): FlowEvent =>
  ({ type, data, actor, at: NOW }) as FlowEvent;

const requested = ev(
  'TenantRequested',
  { flow_id: 'f1', tenant_id: 'f1', slug: 'acme', org_id: ORG, request },
  'alice',
);
const pending = [requested, ev('ApprovalRequested')];
const provisioning = [...pending, ev('FlowApproved', { approver: 'bob' }, 'bob')];
const provisioned = [
  ...provisioning,
  ev('CellPlaced', { cell: 'local-1', region: 'local', database_name: 'tenant_acme' }),
];
const dbReady = [
  ...provisioned,
  ev('DatabaseMigrated', { database_name: 'tenant_acme', schema_version: '1732406400000' }),
];
const routed = [
  ...dbReady,
  ev('RouteRecorded', { cell: 'local-1', database_name: 'tenant_acme', schema_version: '1732406400000' }),
];
const awaiting = [...routed, ev('FirstCheckinAwaited')];
const active = [...awaiting, ev('FirstCheckinReceived', { machine_id: 'm1', checked_in_at: NOW })];
const failedPlacement = [
  ...provisioning,
  ev('StepFailed', {
    step: 'place',
    reason: 'no_placeable_cell',
    attempt: 1,
    next_retry_at: '2026-11-22T10:00:01.000Z',
  }),
];
const paused = [...provisioning, ev('RetriesExhausted', { step: 'place', reason: 'no_placeable_cell', attempts: 5 })];

/** given(events).when(command, ctx).then(events) — reads like the spec's state table. */
function given(events: FlowEvent[]) {
  const state = fold(events);
  return {
    when(command: Command, ctx: Context = engine) {
      const run = () => decide(command, state, ctx);
      return {
        // biome-ignore lint/suspicious/noThenProperty: given/when/then reads like the spec table (STYLE.md item 2); never awaited
        then(expected: Partial<FlowEvent>[]) {
          expect(run()).toEqual(expected.map((e) => expect.objectContaining(e)));
        },
        thenState(status: string) {
          expect(fold([...events, ...run()])?.status).toBe(status);
        },
        thenThrows(error: new (...args: never[]) => Error, message?: RegExp) {
          expect(run).toThrow(error);
          if (message) expect(run).toThrow(message);
        },
      };
    },
  };
}

describe('flow aggregate: spec §3 state table', () => {
  it('(none) + POST /v1/tenants → requested', () => {
    given([])
      .when({ type: 'RequestTenant', flowId: 'f1', tenantId: 'f1', orgId: ORG, request }, alice)
      .then([{ type: 'TenantRequested', actor: 'alice' }]);
    expect(fold([requested])?.status).toBe('requested');
    // The organization id is the use case's (random) choice, never derived from the slug.
    const other = '5e0d2c1b-7a9f-4b3e-8c6d-1f2a3b4c5d6e';
    const again = decide({ type: 'RequestTenant', flowId: 'f2', tenantId: 'f2', orgId: other, request }, null, alice);
    expect(fold(again)?.orgId).toBe(other);
  });

  it('a live flow for the slug → 409 conflict', () => {
    given(pending)
      .when({ type: 'RequestTenant', flowId: 'f2', tenantId: 'f2', orgId: 'o', request }, alice)
      .thenThrows(FlowConflict, /live flow/);
  });

  it('after a rejected flow the slug can be requested again', () => {
    const rejected = [...pending, ev('FlowRejected', { reason: 'not a customer' }, 'bob')];
    given(rejected)
      .when({ type: 'RequestTenant', flowId: 'f2', tenantId: 'f2', orgId: 'o', request }, alice)
      .then([{ type: 'TenantRequested' }]);
  });

  it('requested → pending-approval automatically (the engine)', () => {
    given([requested]).when({ type: 'RequestApproval' }).thenState('pending-approval');
  });

  it('pending-approval is never woken by the engine: only a decision moves it', () => {
    expect(nextStep(fold(pending) as FlowState)).toBeNull();
    expect(dueAt(fold(pending) as FlowState)).toBeNull();
  });

  it('pending-approval + approve by a second operator → provisioning', () => {
    given(pending)
      .when({ type: 'ApproveFlow' }, bob)
      .then([{ type: 'FlowApproved', data: { approver: 'bob' } }]);
    given(pending).when({ type: 'ApproveFlow' }, bob).thenState('provisioning');
  });

  it('self-approval → 403', () => {
    given(pending)
      .when({ type: 'ApproveFlow' }, alice)
      .thenThrows(Forbidden, /approver must not be the requester/);
  });

  it('a viewer cannot write (403) on any command', () => {
    const commands: Command[] = [
      { type: 'ApproveFlow' },
      { type: 'RejectFlow', reason: 'nope, no' },
      { type: 'CancelFlow', reason: 'nope, no' },
      { type: 'ResumeFlow' },
      { type: 'RequestDeprovision', flowId: 'o1', justification: 'x'.repeat(30) },
      { type: 'MintIngestToken', tokenId: 't', prefix: 'p' },
    ];
    for (const command of commands) given(pending).when(command, viewer).thenThrows(Forbidden);
    given([])
      .when({ type: 'RequestTenant', flowId: 'f', tenantId: 'f', orgId: 'o', request }, viewer)
      .thenThrows(Forbidden);
  });

  it('approving twice: the second finds the flow provisioning → 409', () => {
    given(provisioning).when({ type: 'ApproveFlow' }, bob).thenThrows(FlowConflict);
  });

  it.each([
    ['provisioning', provisioning, { type: 'PlaceInCell', cell: 'local-1', region: 'local' }, 'provisioned'],
    ['provisioned', provisioned, { type: 'RecordDatabaseMigrated', schemaVersion: '1' }, 'db-ready'],
    ['db-ready', dbReady, { type: 'RecordRoute', schemaVersion: '1732406400000' }, 'routed'],
    ['routed', routed, { type: 'AwaitFirstCheckin' }, 'awaiting-first-checkin'],
    ['awaiting-first-checkin', awaiting, { type: 'RecordFirstCheckin', machineId: 'm', checkedInAt: NOW }, 'active'],
  ] as [string, FlowEvent[], Command, string][])('%s → %s by the engine', (_, events, command, next) => {
    given(events).when(command).thenState(next);
  });

  it('provisioned means a cell and a database_name, not a database: schema_version stays null', () => {
    const s = fold(provisioned) as FlowState;
    expect(s.placement).toEqual({
      cell: 'local-1',
      region: 'local',
      database_name: 'tenant_acme',
      schema_version: null,
    });
    expect((fold(dbReady) as FlowState).placement.schema_version).toBe('1732406400000');
  });

  it('routing refuses a null schema_version', () => {
    given(provisioned).when({ type: 'RecordRoute', schemaVersion: null }).thenThrows(FlowConflict);
    given(dbReady)
      .when({ type: 'RecordRoute', schemaVersion: null })
      .thenThrows(FlowConflict, /schema_version is null/);
  });

  it('presentation is derived from the state', () => {
    const cases: [FlowEvent[], string][] = [
      [[requested], 'in-progress'],
      [pending, 'awaiting-approval'],
      [dbReady, 'in-progress'],
      [awaiting, 'waiting-for-daemon'],
      [active, 'live'],
      [failedPlacement, 'backing-off'],
      [paused, 'needs-resume'],
      [[...pending, ev('FlowRejected', { reason: 'unknown customer' }, 'bob')], 'done'],
    ];
    for (const [events, expected] of cases) expect(presentation(fold(events) as FlowState)).toBe(expected);
  });

  it('a second check-in changes nothing', () => {
    given(active).when({ type: 'RecordFirstCheckin', machineId: 'm2', checkedInAt: NOW }).then([]);
  });

  it('engine steps refuse operators and states they do not apply to', () => {
    given(provisioning).when({ type: 'PlaceInCell', cell: 'c', region: 'r' }, alice).thenThrows(Forbidden);
    given(pending).when({ type: 'PlaceInCell', cell: 'c', region: 'r' }).thenThrows(FlowConflict);
  });

  it('failed: a step failure retries on a timer, presentation backing-off, attempt and next retry in the journal', () => {
    given(provisioning)
      .when({ type: 'FailStep', step: 'place', reason: 'no_placeable_cell', nextRetryAt: '2026-11-22T10:00:01.000Z' })
      .then([
        {
          type: 'StepFailed',
          data: { step: 'place', reason: 'no_placeable_cell', attempt: 1, next_retry_at: '2026-11-22T10:00:01.000Z' },
        },
      ]);
    const s = fold(failedPlacement) as FlowState;
    expect(s.status).toBe('failed');
    expect(presentation(s)).toBe('backing-off');
    expect(isLive(s)).toBe(true);
    expect(nextStep(s)).toBe('place');
    expect(dueAt(s)).toBe('2026-11-22T10:00:01.000Z');
  });

  it('retries exhausted → paused, which needs an explicit resume', () => {
    const almost = [
      ...provisioning,
      ev('StepFailed', { step: 'place', reason: 'no_placeable_cell', attempt: 4, next_retry_at: NOW }),
    ];
    given(almost)
      .when({ type: 'FailStep', step: 'place', reason: 'no_placeable_cell', nextRetryAt: NOW })
      .then([{ type: 'RetriesExhausted', data: { step: 'place', reason: 'no_placeable_cell', attempts: 5 } }]);
    const s = fold(paused) as FlowState;
    expect(s.status).toBe('paused');
    expect(nextStep(s)).toBeNull();
  });

  it('paused + resume → the paused step runs again with a fresh retry budget', () => {
    given(paused)
      .when({ type: 'ResumeFlow' }, alice)
      .then([{ type: 'FlowResumed', data: { step: 'place' } }]);
    const s = evolve(fold(paused), ev('FlowResumed', { step: 'place' }, 'alice'));
    expect([s.status, s.attempts, nextStep(s)]).toEqual(['provisioning', 0, 'place']);
    given(provisioning).when({ type: 'ResumeFlow' }, alice).thenThrows(FlowConflict);
  });

  it('reject: only a flow awaiting approval; it ends rejected and frees the slug', () => {
    given(pending).when({ type: 'RejectFlow', reason: 'unknown customer' }, bob).thenState('rejected');
    given(provisioning).when({ type: 'RejectFlow', reason: 'unknown customer' }, bob).thenThrows(FlowConflict);
    const s = fold([...pending, ev('FlowRejected', { reason: 'unknown customer' }, 'bob')]) as FlowState;
    expect(isLive(s)).toBe(false);
    expect(nextStep(s)).toBeNull();
  });

  it('cancel after the database exists ends cancelled and compensates what was created', () => {
    given(dbReady).when({ type: 'CancelFlow', reason: 'customer withdrew' }, alice).thenState('cancelled');
    const s = fold([...dbReady, ev('FlowCancelled', { reason: 'customer withdrew' }, 'alice')]) as FlowState;
    expect([s.compensated, nextStep(s), presentation(s)]).toEqual([false, 'compensate', 'compensating']);
    given([...dbReady, ev('FlowCancelled', { reason: 'customer withdrew' }, 'alice')])
      .when({ type: 'RecordResourcesReleased', droppedDatabase: 'tenant_acme', removedRoute: false, revokedTokens: 0 })
      .then([{ type: 'ResourcesReleased' }]);
    given(active).when({ type: 'CancelFlow', reason: 'customer withdrew' }, alice).thenThrows(FlowConflict);
  });

  it('empty or very short reject/cancel reason → 422', () => {
    given(pending).when({ type: 'RejectFlow', reason: '' }, bob).thenThrows(Unprocessable);
    given(pending).when({ type: 'RejectFlow', reason: ' x ' }, bob).thenThrows(Unprocessable);
    given(pending).when({ type: 'CancelFlow', reason: 'no' }, bob).thenThrows(Unprocessable);
  });

  it('token mint only from db-ready on (409 before)', () => {
    for (const events of [pending, provisioning, provisioned]) {
      given(events)
        .when({ type: 'MintIngestToken', tokenId: 't', prefix: 'svc_deploy_abcdef' }, alice)
        .thenThrows(FlowConflict);
    }
    for (const events of [dbReady, routed, awaiting, active]) {
      given(events)
        .when({ type: 'MintIngestToken', tokenId: 't', prefix: 'svc_deploy_abcdef' }, alice)
        .then([{ type: 'IngestTokenMinted', data: { token_id: 't', prefix: 'svc_deploy_abcdef' } }]);
    }
  });

  it('no flow at all → not found', () => {
    given([]).when({ type: 'ApproveFlow' }, bob).thenThrows(NoSuchFlow);
  });
});

describe('offboard flow', () => {
  const justification = 'customer contract ended on 2026-11-01';
  const opened = ev(
    'DeprovisionRequested',
    {
      flow_id: 'o1',
      tenant_id: 'f1',
      slug: 'acme',
      org_id: ORG,
      justification,
      placement: { cell: 'local-1', region: 'local', database_name: 'tenant_acme', schema_version: '1' },
    },
    'alice',
  );

  it('deprovision with a justification under 20 characters → 422', () => {
    given(active)
      .when({ type: 'RequestDeprovision', flowId: 'o1', justification: 'too short' }, alice)
      .thenThrows(Unprocessable);
  });

  it('deprovision opens an offboard flow awaiting a second operator', () => {
    given(active)
      .when({ type: 'RequestDeprovision', flowId: 'o1', justification }, alice)
      .then([{ type: 'DeprovisionRequested' }]);
    const s = fold([opened]) as FlowState;
    expect([s.kind, s.status, s.flowId, s.tenantId]).toEqual(['offboard', 'pending-approval', 'o1', 'f1']);
    given([opened]).when({ type: 'ApproveFlow' }, alice).thenThrows(Forbidden);
    given([opened]).when({ type: 'RequestDeprovision', flowId: 'o2', justification }, bob).thenThrows(FlowConflict);
    given(pending).when({ type: 'RequestDeprovision', flowId: 'o1', justification }, alice).thenThrows(FlowConflict);
  });

  it('approved: revokes tokens, retires the route, erases the identity, drops the database → deprovisioned', () => {
    let events = [opened];
    given(events).when({ type: 'ApproveFlow' }, bob).thenState('deprovisioning');
    events = [...events, ev('FlowApproved', { approver: 'bob' }, 'bob')];
    expect(nextStep(fold(events) as FlowState)).toBe('revoke-tokens');
    events = [...events, ev('TokensRevoked', { revoked: 1 })];
    expect(nextStep(fold(events) as FlowState)).toBe('remove-route');
    events = [...events, ev('RouteRemoved')];
    expect(nextStep(fold(events) as FlowState)).toBe('erase-identity');
    given(events).when({ type: 'RecordDatabaseDropped' }).thenThrows(FlowConflict);
    given(events)
      .when({ type: 'RecordIdentityErased', erased: { organizations: 1 } })
      .then([{ type: 'IdentityErased', data: { erased: { organizations: 1 } } }]);
    events = [...events, ev('IdentityErased', { erased: { organizations: 1 } })];
    expect(nextStep(fold(events) as FlowState)).toBe('drop-database');
    given(events).when({ type: 'RecordDatabaseDropped' }).thenState('deprovisioned');
    given(active).when({ type: 'RecordTenantDeprovisioned', offboardFlowId: 'o1' }).thenState('deprovisioned');
    const gone = fold([...active, ev('TenantDeprovisioned', { offboard_flow_id: 'o1' })]) as FlowState;
    // Released: placement no longer counts it against its cell's capacity.
    expect([gone.status, gone.compensated, nextStep(gone)]).toEqual(['deprovisioned', true, null]);
  });

  it('a stream holds one kind of flow: an event of the other kind does not fold into it', () => {
    expect(() => fold([...active, ev('TokensRevoked', { revoked: 1 })])).toThrow(/does not belong to an onboard flow/);
    expect(() => fold([opened, ev('IngestTokenMinted', { token_id: 't', prefix: 'p' })])).toThrow(
      /does not belong to an offboard flow/,
    );
    expect(() => fold([ev('FlowApproved', { approver: 'bob' })])).toThrow(/cannot open a flow/);
  });

  it('engine steps of the other kind of flow do not apply', () => {
    given([opened, ev('FlowApproved', { approver: 'bob' }, 'bob')])
      .when({ type: 'PlaceInCell', cell: 'c', region: 'r' })
      .thenThrows(FlowConflict, /step place does not apply/);
    given(active).when({ type: 'RecordTokensRevoked', revoked: 1 }).thenThrows(FlowConflict);
    given([opened]).when({ type: 'RecordTenantDeprovisioned', offboardFlowId: 'o1' }).then([]);
  });

  it('reject and cancel end the offboard flow, leaving the tenant as it was', () => {
    given([opened]).when({ type: 'RejectFlow', reason: 'still paying' }, bob).thenState('rejected');
    given([opened]).when({ type: 'CancelFlow', reason: 'opened by mistake' }, alice).thenState('cancelled');
    const s = fold([opened, ev('FlowCancelled', { reason: 'opened by mistake' }, 'alice')]) as FlowState;
    expect([isLive(s), nextStep(s)]).toEqual([false, null]);
  });
});

describe('tenant request body (spec §2, §7)', () => {
  const valid = { ...request, security_profile_target: undefined };
  it.each([
    ['plan_tier trial', { plan_tier: 'trial' }, 'unprocessable'],
    ['isolation dedicated', { isolation: 'dedicated' }, 'unprocessable'],
    ['isolation self-hosted', { isolation: 'self-hosted' }, 'unprocessable'],
    ['a slug over 56 characters', { slug: 'a'.repeat(57) }, 'unprocessable'],
    ['a slug that is not URL-safe', { slug: 'Acme Corp' }, 'unprocessable'],
    ['owner_email without @', { owner_email: 'it.acme.test' }, 'unprocessable'],
    ['gateways', { gateways: [] }, 'unprocessable'],
    ['notes over 2000 characters', { notes: 'n'.repeat(2001) }, 'unprocessable'],
    ['an unknown key', { colour: 'blue' }, 'bad_request'],
  ])('refuses %s', (_, change, error) => {
    expect(parseTenantRequest({ ...valid, ...change })).toMatchObject({ ok: false, error });
  });

  it('accepts a 56-character slug, defaults security_profile_target to monitor', () => {
    const verdict = parseTenantRequest({ ...valid, slug: 'a'.repeat(56), notes: 'n'.repeat(2000) });
    expect(verdict).toMatchObject({ ok: true, value: { security_profile_target: 'monitor' } });
  });

  it('refuses a body that is not an object', () => {
    expect(parseTenantRequest([1])).toMatchObject({ ok: false, error: 'bad_request' });
  });
});

describe('placement and backoff policy', () => {
  const cells = [
    { id: 'a', region: 'eu', capacity: 2, admin_url: 'x' },
    { id: 'b', region: 'eu', capacity: 5, admin_url: 'x' },
    { id: 'c', region: 'us', capacity: 9, admin_url: 'x' },
  ];
  it('places in the cell of the region with the most spare capacity, else none', () => {
    expect(chooseCell(cells, 'eu', { b: 4 })?.id).toBe('a');
    expect(chooseCell(cells, 'eu', { a: 2, b: 5 })).toBeNull();
    expect(chooseCell(cells, 'ap', {})).toBeNull();
  });
  it('backs off exponentially with jitter, capped', () => {
    const policy = { baseMs: 100, maxMs: 1000, maxAttempts: 5 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(policy, n, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(retryDelayMs(policy, 3, () => 0)).toBe(200);
  });
});
