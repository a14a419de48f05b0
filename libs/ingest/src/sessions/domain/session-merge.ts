import { SessionState } from '@agentwatch/contracts';

/**
 * The merge of the sessions read model as pure functions: what `MERGE_LIFECYCLE` and
 * `TOUCH_FROM_EVENTS` (sessions.projection.ts) do to one row, statement by statement, so that the
 * rules can be tested one at a time and the SQL checked against them. Times are epoch milliseconds;
 * `-Infinity` is Postgres' '-infinity' and `null` is SQL NULL, which LEAST / GREATEST skip.
 */
export const METADATA = ['session_name', 'model', 'signing_id', 'platform', 'parent_id'] as const;
export type MetadataField = (typeof METADATA)[number];
export type SessionMetadata = Record<MetadataField, string | null>;
/** `<field>_at`: the time of the record whose value the column holds; null exactly while the value is. */
export type MetadataTimes = { [F in MetadataField as `${F}_at`]: number | null };
export const timeOf = <F extends MetadataField>(field: F) => `${field}_at` as `${F}_at`;

export interface SessionRow extends SessionMetadata, MetadataTimes {
  state: SessionState;
  state_at: number;
  started_at: number | null;
  ended_at: number | null;
  last_seen_at: number;
}

export interface LifecycleRecord extends SessionMetadata {
  state: SessionState;
  at: number;
}

export interface SessionEvent {
  at: number;
}

const defined = (values: (number | null)[]) => values.filter((v): v is number => v !== null);
const least = (...values: (number | null)[]) => (defined(values).length ? Math.min(...defined(values)) : null);

/** The row a lifecycle record inserts, also its EXCLUDED row on conflict. */
function fromRecord(record: LifecycleRecord): SessionRow {
  const { state, at } = record;
  const metadata = Object.fromEntries(
    METADATA.flatMap((field) => [
      [field, record[field]],
      [timeOf(field), record[field] === null ? null : at],
    ]),
  ) as SessionMetadata & MetadataTimes;
  return {
    state,
    state_at: at,
    started_at: at,
    ended_at: state === 'ended' ? at : null,
    last_seen_at: at,
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

/** Order of code points, which is the byte order of UTF-8 text under `COLLATE "C"` and of uuids. */
function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * `newerValue` in SQL: each column keeps the value of the newest record that reported one, records of
 * the same time tie-breaking on the greater value. A maximum per column, so the row is the same
 * whatever order the records arrive in, and a missing field never erases a known one.
 */
function takesIncoming(row: SessionRow, incoming: SessionRow, field: MetadataField): boolean {
  const value = incoming[field];
  const current = row[field];
  if (value === null) return false;
  if (current === null) return true;
  const at = incoming[timeOf(field)]!;
  const currentAt = row[timeOf(field)]!;
  return at > currentAt || (at === currentAt && compareCodePoints(value, current) > 0);
}

function mergedMetadata(row: SessionRow, incoming: SessionRow): SessionMetadata & MetadataTimes {
  return Object.fromEntries(
    METADATA.flatMap((field) => {
      const from = takesIncoming(row, incoming, field) ? incoming : row;
      return [
        [field, from[field]],
        [timeOf(field), from[timeOf(field)]],
      ];
    }),
  ) as SessionMetadata & MetadataTimes;
}

export function mergeLifecycle(row: SessionRow | null, record: LifecycleRecord): SessionRow {
  const incoming = fromRecord(record);
  if (!row) return incoming;
  return {
    ...mergedState(row, incoming),
    ended_at: least(row.ended_at, incoming.ended_at),
    started_at: least(row.started_at, incoming.started_at),
    last_seen_at: Math.max(row.last_seen_at, incoming.last_seen_at),
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
      ...(Object.fromEntries(
        METADATA.flatMap((field) => [
          [field, null],
          [timeOf(field), null],
        ]),
      ) as SessionMetadata & MetadataTimes),
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
