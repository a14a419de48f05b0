// What a flow is asked to do. Operators issue their commands over HTTP; the flow engine (the process
// manager) and the check-in consumer issue the engine commands, each recording a step's outcome.
// Kept apart so a use case cannot hand an engine step to an operator route, or the reverse.

import { Forbidden } from './errors';
import { TenantRequest } from './tenant-request';

/** A step the engine runs from a state; `failed` and `paused` remember it to retry or resume. */
export type Step =
  | 'request-approval'
  | 'place'
  | 'create-database'
  | 'route'
  | 'await-checkin'
  | 'compensate'
  | 'revoke-tokens'
  | 'remove-route'
  | 'erase-identity'
  | 'drop-database';

export type RequestTenant = {
  type: 'RequestTenant';
  flowId: string;
  tenantId: string;
  orgId: string;
  request: TenantRequest;
};

export type OperatorCommand =
  | RequestTenant
  | { type: 'ApproveFlow' }
  | { type: 'RejectFlow'; reason: string }
  | { type: 'CancelFlow'; reason: string }
  | { type: 'ResumeFlow' }
  | { type: 'RequestDeprovision'; flowId: string; justification: string }
  | { type: 'MintIngestToken'; tokenId: string; prefix: string };

export type EngineCommand =
  | { type: 'RequestApproval' }
  | { type: 'PlaceInCell'; cell: string; region: string }
  | { type: 'RecordDatabaseMigrated'; schemaVersion: string }
  | { type: 'RecordRoute'; schemaVersion: string | null }
  | { type: 'AwaitFirstCheckin' }
  | { type: 'RecordFirstCheckin'; machineId: string | null; checkedInAt: string }
  | { type: 'FailStep'; step: Step; reason: string; nextRetryAt: string | null }
  | { type: 'RecordResourcesReleased'; droppedDatabase: string | null; removedRoute: boolean; revokedTokens: number }
  | { type: 'RecordTokensRevoked'; revoked: number }
  | { type: 'RecordRouteRemoved' }
  | { type: 'RecordIdentityErased'; erased: Record<string, number> }
  | { type: 'RecordDatabaseDropped' }
  | { type: 'RecordTenantDeprovisioned'; offboardFlowId: string };

export type Command = OperatorCommand | EngineCommand;

/** A command on a flow that exists: every one but the request that opens a tenant's flow. */
export type FlowCommand<C extends Command = Command> = Exclude<C, RequestTenant>;

/** Who issues a command, and when: passed in so tests fix both (STYLE.md item 5). */
export interface Context {
  actor: string;
  role: 'operator' | 'viewer' | 'system';
  now: string;
}

// Typed as a full record so a new engine command cannot be left out.
const ENGINE_COMMANDS: Record<EngineCommand['type'], true> = {
  RequestApproval: true,
  PlaceInCell: true,
  RecordDatabaseMigrated: true,
  RecordRoute: true,
  AwaitFirstCheckin: true,
  RecordFirstCheckin: true,
  FailStep: true,
  RecordResourcesReleased: true,
  RecordTokensRevoked: true,
  RecordRouteRemoved: true,
  RecordIdentityErased: true,
  RecordDatabaseDropped: true,
  RecordTenantDeprovisioned: true,
};

export const isEngineCommand = (command: Command): command is EngineCommand =>
  Object.hasOwn(ENGINE_COMMANDS, command.type);

/** The step whose outcome an engine command records (FailStep names its own). */
export const STEP_RECORDED_BY = {
  PlaceInCell: 'place',
  RecordDatabaseMigrated: 'create-database',
  RecordRoute: 'route',
  AwaitFirstCheckin: 'await-checkin',
  RecordResourcesReleased: 'compensate',
  RecordTokensRevoked: 'revoke-tokens',
  RecordRouteRemoved: 'remove-route',
  RecordIdentityErased: 'erase-identity',
  RecordDatabaseDropped: 'drop-database',
} as const satisfies Partial<Record<EngineCommand['type'], Step>>;

export function requireOperator(ctx: Context): void {
  if (ctx.role === 'viewer') throw new Forbidden('the operator role is required for this route');
}

export function requireSystem(ctx: Context): void {
  if (ctx.role !== 'system') throw new Forbidden('only the flow engine runs this step');
}

/** Checks the issuer's role for any command: operators for theirs, the engine for its steps. */
export function requireIssuer(command: Command, ctx: Context): void {
  if (isEngineCommand(command)) requireSystem(ctx);
  else requireOperator(ctx);
}
