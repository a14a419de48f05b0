import { SessionState } from '@agentwatch/contracts';

/**
 * The merge of the sessions read model as pure functions: what `MERGE_LIFECYCLE` and
 * `TOUCH_FROM_EVENTS` (sessions.projection.ts) do to one row, statement by statement, so that the
 * rules can be tested one at a time and the SQL checked against them. Times are epoch milliseconds;
 * `-Infinity` is Postgres' '-infinity' and `null` is SQL NULL, which LEAST / GREATEST skip.
 */
export interface SessionRow {
  state: SessionState;
  state_at: number;
  started_at: number | null;
  ended_at: number | null;
  last_seen_at: number;
  record_at: number | null;
  session_name: string | null;
  model: string | null;
  signing_id: string | null;
  platform: string | null;
  parent_id: string | null;
}

export const METADATA = ['session_name', 'model', 'signing_id', 'platform', 'parent_id'] as const;
export type SessionMetadata = Pick<SessionRow, (typeof METADATA)[number]>;

export interface LifecycleRecord extends SessionMetadata {
  state: SessionState;
  at: number;
}

export interface SessionEvent {
  at: number;
}

const defined = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
const least = (...values: (number | null)[]) => (defined(values).length ? Math.min(...defined(values)) : null);
const greatest = (...values: (number | null)[]) => (defined(values).length ? Math.max(...defined(values)) : null);

/** The row a lifecycle record inserts, also its EXCLUDED row on conflict. */
function fromRecord(record: LifecycleRecord): SessionRow {
  const { state, at } = record;
  const metadata = Object.fromEntries(METADATA.map((field) => [field, record[field]])) as SessionMetadata;
  return {
    state,
    state_at: at,
    started_at: at,
    ended_at: state === 'ended' ? at : null,
    last_seen_at: at,
    record_at: at,
    ...metadata,
  };
}

/** `(EXCLUDED.state_at, EXCLUDED.state) > (s.state_at, s.state)`: a tie goes to the later state name. */
const supersedes = (incoming: SessionRow, row: SessionRow) =>
  incoming.state_at > row.state_at || (incoming.state_at === row.state_at && incoming.state > row.state);

function mergedState(row: SessionRow, incoming: SessionRow): Pick<SessionRow, 'state' | 'state_at'> {
  if (row.state === 'ended' && incoming.state === 'ended')
    return { state: 'ended', state_at: Math.min(row.state_at, incoming.state_at) };
  if (row.state === 'ended') return { state: 'ended', state_at: row.state_at };
  if (incoming.state === 'ended') return { state: 'ended', state_at: incoming.state_at };
  return {
    state: supersedes(incoming, row) ? incoming.state : row.state,
    state_at: Math.max(row.state_at, incoming.state_at),
  };
}

/**
 * `newestKnown`: the newer side's value unless it has none; the record wins a tie on record_at.
 * The row keeps one record_at for all columns, so a value kept from an older record is not dated:
 * which one survives can depend on arrival order (see the projection's header).
 */
function mergedMetadata(row: SessionRow, incoming: SessionRow): SessionMetadata {
  const incomingIsNewer = incoming.record_at! >= (row.record_at ?? -Infinity);
  return Object.fromEntries(
    METADATA.map((field) => [
      field,
      incomingIsNewer ? (incoming[field] ?? row[field]) : (row[field] ?? incoming[field]),
    ]),
  ) as SessionMetadata;
}

export function mergeLifecycle(row: SessionRow | null, record: LifecycleRecord): SessionRow {
  const incoming = fromRecord(record);
  if (!row) return incoming;
  return {
    ...mergedState(row, incoming),
    ended_at: least(row.ended_at, incoming.ended_at),
    started_at: least(row.started_at, incoming.started_at),
    last_seen_at: Math.max(row.last_seen_at, incoming.last_seen_at),
    record_at: greatest(row.record_at, incoming.record_at),
    ...mergedMetadata(row, incoming),
  };
}

/**
 * An event only widens the span of a known session; an unknown one starts `active` at
 * '-infinity', so that any lifecycle record, whenever it is dated, sets the state.
 */
export function touchFromEvent(row: SessionRow | null, event: SessionEvent): SessionRow {
  if (!row) {
    return {
      state: 'active',
      state_at: -Infinity,
      started_at: event.at,
      ended_at: null,
      last_seen_at: event.at,
      record_at: null,
      session_name: null,
      model: null,
      signing_id: null,
      platform: null,
      parent_id: null,
    };
  }
  return { ...row, started_at: least(row.started_at, event.at), last_seen_at: Math.max(row.last_seen_at, event.at) };
}

export type SessionInput = ({ kind: 'lifecycle' } & LifecycleRecord) | ({ kind: 'event' } & SessionEvent);

/** One session's row after the inputs, applied in their order. */
export function mergeAll(inputs: SessionInput[], row: SessionRow | null = null): SessionRow | null {
  return inputs.reduce<SessionRow | null>(
    (current, input) => (input.kind === 'lifecycle' ? mergeLifecycle(current, input) : touchFromEvent(current, input)),
    row,
  );
}
