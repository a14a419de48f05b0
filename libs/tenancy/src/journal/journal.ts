import { FLOW_EVENT_RECORDED_TYPE, FlowEventRecordedV1, TOPICS } from '@agentwatch/contracts';
import { Queryable } from '@agentwatch/db';
import { v7 as uuidv7 } from 'uuid';
import { FlowConflict } from '../domain/errors';
import { dueAt, evolve, FlowEvent, FlowState, fold, isLive } from '../domain/flow';
import { OffboardState } from '../domain/offboard';
import { OnboardState } from '../domain/onboard';

export interface JournalRow {
  position: string;
  event_id: string;
  stream_id: string;
  version: number;
  tenant_id: string;
  slug: string;
  flow_kind: 'onboard' | 'offboard';
  type: string;
  data: Record<string, unknown>;
  actor: string;
  recorded_at: Date;
}

export interface LoadedFlow {
  state: FlowState | null;
  version: number;
}

const UNIQUE_VIOLATION = '23505';

export const toFlowEvent = (row: Pick<JournalRow, 'type' | 'data' | 'actor' | 'recorded_at'>): FlowEvent =>
  ({ type: row.type, data: row.data, actor: row.actor, at: new Date(row.recorded_at).toISOString() }) as FlowEvent;

export async function loadFlow(q: Queryable, streamId: string): Promise<LoadedFlow> {
  const rows: JournalRow[] = await q.query(
    'SELECT type, data, actor, recorded_at, version FROM tenancy_journal WHERE stream_id = $1 ORDER BY version',
    [streamId],
  );
  return { state: fold(rows.map(toFlowEvent)), version: rows.length === 0 ? 0 : rows[rows.length - 1].version };
}

/**
 * Appends a flow's new events with optimistic concurrency and, in the same transaction, projects
 * them into the flow row, sets the flow's timer and writes the outbox. Every append of one tenant
 * (its onboard and offboard flows) first locks the tenant's row, so journal positions of a tenant
 * commit in order: a reader following `position > last` never skips one.
 */
export async function appendToFlow(
  tx: Queryable,
  streamId: string,
  expectedVersion: number,
  prior: FlowState | null,
  events: FlowEvent[],
): Promise<FlowState> {
  if (events.length === 0) {
    if (prior === null) throw new Error('nothing to append to an empty flow');
    return prior;
  }
  let state = prior;
  const opening = prior === null;
  const first = opening ? evolve(null, events[0]) : prior;
  if (!opening || first.kind === 'offboard') {
    const locked = await tx.query('SELECT 1 FROM tenancy_flows WHERE stream_id = $1 FOR UPDATE', [first.tenantId]);
    if (locked.length === 0) throw new FlowConflict('the tenant flow does not exist');
  }
  if (!opening) {
    const [row] = await tx.query('SELECT version FROM tenancy_flows WHERE stream_id = $1', [streamId]);
    if (!row || row.version !== expectedVersion) {
      throw new FlowConflict('the flow changed concurrently; reload and retry');
    }
  }
  let version = expectedVersion;
  for (const event of events) {
    state = evolve(state, event);
    version += 1;
    const eventId = uuidv7();
    const [{ position }] = await tx.query(
      `INSERT INTO tenancy_journal (event_id, stream_id, version, tenant_id, slug, flow_kind, type, data, actor, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING position`,
      [
        eventId,
        streamId,
        version,
        state.tenantId,
        state.slug,
        state.kind,
        event.type,
        JSON.stringify(event.data),
        event.actor,
        event.at,
      ],
    );
    const payload: FlowEventRecordedV1 = {
      position: Number(position),
      flow_id: streamId,
      flow_kind: state.kind,
      tenant_id: state.tenantId,
      slug: state.slug,
      version,
      type: event.type,
      data: event.data as Record<string, unknown>,
      actor: event.actor,
      recorded_at: event.at,
    };
    await enqueue(tx, TOPICS.tenancyFlows.name, state.slug, eventId, FLOW_EVENT_RECORDED_TYPE, state.orgId, payload);
  }
  const final = state as FlowState;
  try {
    await tx.query(
      `INSERT INTO tenancy_flows (stream_id, tenant_id, kind, slug, org_id, state, version, live, detail, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (stream_id) DO UPDATE SET state = EXCLUDED.state, version = EXCLUDED.version,
         live = EXCLUDED.live, detail = EXCLUDED.detail, updated_at = EXCLUDED.updated_at`,
      [
        streamId,
        final.tenantId,
        final.kind,
        final.slug,
        final.orgId,
        final.status,
        version,
        isLive(final),
        JSON.stringify(final),
        final.requestedAt,
        final.updatedAt,
      ],
    );
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new FlowConflict(`a live flow already exists for ${final.slug}`);
    }
    throw error;
  }
  const due = dueAt(final);
  if (due === null) await tx.query('DELETE FROM tenancy_timers WHERE stream_id = $1', [streamId]);
  else {
    await tx.query(
      `INSERT INTO tenancy_timers (stream_id, due_at) VALUES ($1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET due_at = EXCLUDED.due_at`,
      [streamId, due],
    );
  }
  return final;
}

export async function enqueue(
  tx: Queryable,
  topic: string,
  key: string,
  ceId: string,
  ceType: string,
  orgId: string,
  payload: unknown,
): Promise<void> {
  await tx.query(
    'INSERT INTO tenancy_outbox (topic, key, ce_id, ce_type, org_id, payload) VALUES ($1, $2, $3, $4, $5, $6)',
    [topic, key, ceId, ceType, orgId, JSON.stringify(payload)],
  );
}

export interface FlowRow<S extends FlowState = FlowState> {
  stream_id: string;
  tenant_id: string;
  kind: 'onboard' | 'offboard';
  slug: string;
  org_id: string;
  state: string;
  version: number;
  live: boolean;
  detail: S;
}

/**
 * Locks a tenant (its provisioning flow's row) for the rest of the transaction: the lock every append
 * takes too, so a command that loads after it decides on the flow's latest version and cannot lose
 * a race with the engine.
 */
export async function lockTenant(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query('SELECT 1 FROM tenancy_flows WHERE stream_id = $1 FOR UPDATE', [tenantId]);
}

/** The latest provisioning flow of a slug (live or ended), and its live offboard flow if any. */
export async function flowsOfSlug(
  q: Queryable,
  slug: string,
): Promise<{ onboard: FlowRow<OnboardState> | null; offboard: FlowRow<OffboardState> | null }> {
  const [onboard]: FlowRow<OnboardState>[] = await q.query(
    `SELECT * FROM tenancy_flows WHERE slug = $1 AND kind = 'onboard' ORDER BY live DESC, created_at DESC LIMIT 1`,
    [slug],
  );
  if (!onboard) return { onboard: null, offboard: null };
  const [offboard]: FlowRow<OffboardState>[] = await q.query(
    `SELECT * FROM tenancy_flows WHERE tenant_id = $1 AND kind = 'offboard' ORDER BY live DESC, created_at DESC LIMIT 1`,
    [onboard.stream_id],
  );
  return { onboard, offboard: offboard ?? null };
}
