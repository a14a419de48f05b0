// The flow journal as the console follows it over the event stream: the entries in position order
// without duplicates, the last event id to resume from, and the connection's state. A pure reducer:
// the stream driver (api/journal-stream.ts) feeds it and reads the reconnect delay back from it.

import { reconnectDelay } from './backoff';

export interface JournalEntry {
  /** The SSE `id`: the journal position, as the server wrote it. */
  id: string;
  position: number;
  flowId: string;
  flowKind: string;
  type: string;
  data: Record<string, unknown>;
  actor: string;
  recordedAt: string;
}

export type Connection =
  | { status: 'connecting'; attempt: number }
  | { status: 'live' }
  | { status: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { status: 'stopped'; reason: string };

export interface JournalState {
  entries: JournalEntry[];
  lastEventId: string | null;
  /** The server's `retry:` field, in ms. */
  serverRetryMs: number | null;
  /** Failed connections in a row since the stream was last open. */
  failures: number;
  connection: Connection;
}

export type JournalAction =
  | { type: 'connect' }
  | { type: 'open' }
  | { type: 'event'; entry: JournalEntry }
  | { type: 'retry'; ms: number }
  | { type: 'drop'; reason: string }
  | { type: 'stop'; reason: string };

export const initialJournal: JournalState = {
  entries: [],
  lastEventId: null,
  serverRetryMs: null,
  failures: 0,
  connection: { status: 'connecting', attempt: 0 },
};

export function journalReducer(state: JournalState, action: JournalAction): JournalState {
  switch (action.type) {
    case 'connect':
      if (state.connection.status === 'stopped') return state;
      return { ...state, connection: { status: 'connecting', attempt: state.failures } };
    case 'open':
      return { ...state, failures: 0, connection: { status: 'live' } };
    case 'event':
      return withEntry(state, action.entry);
    case 'retry':
      return Number.isFinite(action.ms) && action.ms >= 0 ? { ...state, serverRetryMs: action.ms } : state;
    case 'drop': {
      if (state.connection.status === 'stopped') return state;
      const attempt = state.failures + 1;
      const delayMs = reconnectDelay(attempt, state.serverRetryMs);
      return {
        ...state,
        failures: attempt,
        connection: { status: 'reconnecting', attempt, delayMs, reason: action.reason },
      };
    }
    case 'stop':
      return { ...state, connection: { status: 'stopped', reason: action.reason } };
    default: {
      const _exhaustive: never = action;
      return _exhaustive;
    }
  }
}

/** Inserts in position order; an id already held (a replay after a reconnect) changes nothing. */
function withEntry(state: JournalState, entry: JournalEntry): JournalState {
  const { entries } = state;
  if (entries.some((held) => held.id === entry.id)) return state;
  let at = entries.length;
  while (at > 0 && entries[at - 1].position > entry.position) at -= 1;
  const next = [...entries.slice(0, at), entry, ...entries.slice(at)];
  const newest = next[next.length - 1];
  return { ...state, entries: next, lastEventId: newest.id };
}

/** A stream message as a journal entry, or null when it is not one (a message without an id or JSON). */
export function entryOf(message: { id?: string; event?: string; data: string }): JournalEntry | null {
  if (!message.id || !/^\d{1,18}$/.test(message.id)) return null;
  let body: unknown;
  try {
    body = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Record<string, unknown>;
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  const data = fields.data;
  return {
    id: message.id,
    position: Number(message.id),
    flowId: text('flow_id'),
    flowKind: text('flow_kind'),
    type: text('type') || message.event || 'message',
    data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
    actor: text('actor'),
    recordedAt: text('recorded_at'),
  };
}

/** What the connection status line says (a live region reads it out). */
export function connectionText(connection: Connection): string {
  switch (connection.status) {
    case 'connecting':
      return connection.attempt === 0 ? 'Connecting…' : `Reconnecting (attempt ${connection.attempt})…`;
    case 'live':
      return 'Live';
    case 'reconnecting':
      return `Reconnecting in ${Math.round(connection.delayMs / 1000)} s (attempt ${connection.attempt})`;
    case 'stopped':
      return `Stopped: ${connection.reason}`;
    default: {
      const _exhaustive: never = connection;
      return _exhaustive;
    }
  }
}
