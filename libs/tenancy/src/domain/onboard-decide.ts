// The onboard flow's decisions: what each operator command and engine step records, or the
// typed domain error that refuses it.

import {
  Context,
  EngineCommand,
  FlowCommand,
  isEngineCommand,
  OperatorCommand,
  RequestTenant,
  requireIssuer,
  requireOperator,
  STEP_RECORDED_BY,
} from './commands';
import { FlowConflict } from './errors';
import {
  approve,
  cancel,
  eventsOf,
  FlowBase,
  failStep,
  isLive,
  MAX_ATTEMPTS_DEFAULT,
  reject,
  requireJustification,
  requireStatus,
  requireStep,
  resume,
} from './flow-base';
import { DeprovisionRequested } from './offboard';
import {
  databaseName,
  nextOnboardStep,
  ONBOARD_STATES,
  OnboardEvent,
  OnboardState,
  OnboardStatus,
  TOKEN_STATES,
} from './onboard';

const event = eventsOf<OnboardEvent>();
const deprovisionRequested = eventsOf<DeprovisionRequested>();

/** Any live state but `active`: a running tenant is deprovisioned, not cancelled. */
const CANCELLABLE = ONBOARD_STATES.filter((s) => !['active', 'rejected', 'cancelled', 'deprovisioned'].includes(s));
const DEPROVISIONABLE: OnboardStatus[] = ['active', 'awaiting-first-checkin', 'routed', 'db-ready', 'paused', 'failed'];

/** Opens a tenant's onboard flow; `latest` is the slug's most recent flow, if any (a live one refuses). */
export function requestTenant(
  command: RequestTenant,
  latest: FlowBase<string, string> | null,
  ctx: Context,
): OnboardEvent[] {
  requireOperator(ctx);
  if (latest !== null && isLive(latest)) throw new FlowConflict(`a live flow already exists for ${latest.slug}`);
  const { flowId, tenantId, orgId, request } = command;
  return [
    event('TenantRequested', { flow_id: flowId, tenant_id: tenantId, slug: request.slug, org_id: orgId, request }, ctx),
  ];
}

export function decideOnboard(
  command: FlowCommand,
  state: OnboardState,
  ctx: Context,
  maxAttempts = MAX_ATTEMPTS_DEFAULT,
): (OnboardEvent | DeprovisionRequested)[] {
  requireIssuer(command, ctx);
  return isEngineCommand(command) ? engineStep(command, state, ctx, maxAttempts) : operatorCommand(command, state, ctx);
}

function operatorCommand(
  command: FlowCommand<OperatorCommand>,
  s: OnboardState,
  ctx: Context,
): (OnboardEvent | DeprovisionRequested)[] {
  switch (command.type) {
    case 'ApproveFlow':
      return approve(s, ctx);
    case 'RejectFlow':
      return reject(s, command.reason, ctx);
    case 'CancelFlow':
      return cancel(s, CANCELLABLE, command.reason, ctx);
    case 'ResumeFlow':
      return resume(s, ctx);
    case 'RequestDeprovision': {
      requireJustification(command.justification);
      requireStatus(s, DEPROVISIONABLE, 'deprovision');
      const { flowId, justification } = command;
      const data = { flow_id: flowId, tenant_id: s.tenantId, slug: s.slug, org_id: s.orgId, justification };
      return [deprovisionRequested('DeprovisionRequested', { ...data, placement: s.placement }, ctx)];
    }
    case 'MintIngestToken':
      if (!TOKEN_STATES.includes(s.status)) {
        throw new FlowConflict(`an ingest token can be minted from db-ready on; the flow is ${s.status}`);
      }
      return [event('IngestTokenMinted', { token_id: command.tokenId, prefix: command.prefix }, ctx)];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

function engineStep(command: EngineCommand, s: OnboardState, ctx: Context, maxAttempts: number): OnboardEvent[] {
  const next = nextOnboardStep(s);
  switch (command.type) {
    case 'RequestApproval':
      requireStatus(s, ['requested'], 'request approval');
      return [event('ApprovalRequested', {}, ctx)];
    case 'PlaceInCell':
      requireStep(s, next, 'place');
      return [
        event('CellPlaced', { cell: command.cell, region: command.region, database_name: databaseName(s.slug) }, ctx),
      ];
    case 'RecordDatabaseMigrated': {
      requireStep(s, next, 'create-database');
      const database_name = s.placement.database_name as string;
      return [event('DatabaseMigrated', { database_name, schema_version: command.schemaVersion }, ctx)];
    }
    case 'RecordRoute': {
      requireStep(s, next, 'route');
      // Anything that routes traffic refuses a database that is not known to be migrated (spec §3).
      if (command.schemaVersion === null || s.placement.schema_version === null) {
        throw new FlowConflict('refusing to route a tenant whose schema_version is null');
      }
      const { cell, database_name } = s.placement as { cell: string; database_name: string };
      return [event('RouteRecorded', { cell, database_name, schema_version: command.schemaVersion }, ctx)];
    }
    case 'AwaitFirstCheckin':
      requireStep(s, next, 'await-checkin');
      return [event('FirstCheckinAwaited', {}, ctx)];
    case 'RecordFirstCheckin':
      // A second daemon, or a redelivered check-in, changes nothing.
      if (s.status !== 'awaiting-first-checkin') return [];
      return [
        event('FirstCheckinReceived', { machine_id: command.machineId, checked_in_at: command.checkedInAt }, ctx),
      ];
    case 'FailStep':
      requireStep(s, next, command.step);
      return failStep(s, command, ctx, maxAttempts);
    case 'RecordResourcesReleased': {
      requireStep(s, next, 'compensate');
      const { droppedDatabase, removedRoute, revokedTokens } = command;
      const data = { dropped_database: droppedDatabase, removed_route: removedRoute, revoked_tokens: revokedTokens };
      return [event('ResourcesReleased', data, ctx)];
    }
    case 'RecordTenantDeprovisioned':
      if (s.status === 'deprovisioned') return [];
      return [event('TenantDeprovisioned', { offboard_flow_id: command.offboardFlowId }, ctx)];
    case 'RecordTokensRevoked':
    case 'RecordRouteRemoved':
    case 'RecordIdentityErased':
    case 'RecordDatabaseDropped':
      // Offboard steps: never the step an onboard flow runs.
      requireStep(s, next, STEP_RECORDED_BY[command.type]);
      return [];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
