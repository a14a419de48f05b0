// One line per journal event for a person: what happened, from the event's own payload.

import { JournalEntry } from './journal';

type Data = Record<string, unknown>;

const str = (value: unknown) => (value === null || value === undefined ? '—' : String(value));

const SUMMARIES: Record<string, (data: Data) => string> = {
  TenantRequested: (d) => {
    const request = (d.request ?? {}) as Data;
    return `requested ${str(d.slug)}: ${str(request.name)}, ${str(request.region)}, ${str(request.plan_tier)}`;
  },
  ApprovalRequested: () => "waiting for a second operator's approval",
  FlowApproved: (d) => `approved by ${str(d.approver)}`,
  CellPlaced: (d) => `placed in cell ${str(d.cell)} (${str(d.region)}), database ${str(d.database_name)}`,
  DatabaseMigrated: (d) => `database ${str(d.database_name)} migrated, schema version ${str(d.schema_version)}`,
  RouteRecorded: (d) => `routed to cell ${str(d.cell)}, database ${str(d.database_name)}`,
  FirstCheckinAwaited: () => 'waiting for the first check-in',
  FirstCheckinReceived: (d) => `first check-in at ${str(d.checked_in_at)}`,
  StepFailed: (d) =>
    `step ${str(d.step)} failed (attempt ${str(d.attempt)}): ${str(d.reason)}; retry at ${str(d.next_retry_at)}`,
  RetriesExhausted: (d) => `step ${str(d.step)} paused after ${str(d.attempts)} attempts: ${str(d.reason)}`,
  FlowResumed: (d) => `resumed at step ${str(d.step)}`,
  FlowRejected: (d) => `rejected: ${str(d.reason)}`,
  FlowCancelled: (d) => `cancelled: ${str(d.reason)}`,
  ResourcesReleased: (d) =>
    `released: database ${str(d.dropped_database)}, route ${d.removed_route ? 'removed' : 'none'}, ` +
    `${str(d.revoked_tokens)} tokens revoked`,
  IngestTokenMinted: (d) => `ingest token ${str(d.prefix)}… minted`,
  TenantDeprovisioned: () => 'tenant deprovisioned',
  DeprovisionRequested: (d) => `deprovision requested: ${str(d.justification)}`,
  TokensRevoked: (d) => `${str(d.revoked)} tokens revoked`,
  RouteRemoved: () => 'route retired, data key destroyed',
  IdentityErased: (d) => {
    const erased = Object.entries((d.erased ?? {}) as Data);
    return `identity erased (${erased.map(([table, rows]) => `${table} ${str(rows)}`).join(', ') || 'nothing left'})`;
  },
  DatabaseDropped: (d) => `database ${str(d.database_name)} dropped`,
};

export function summaryOf(entry: Pick<JournalEntry, 'type' | 'data'>): string {
  const known = SUMMARIES[entry.type];
  if (known) return known(entry.data);
  return Object.entries(entry.data)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : str(value)}`)
    .join(', ');
}
