import { call, eventually } from '@agentwatch/testing';
import { v5 as uuidv5 } from 'uuid';

/** What the API promised for one organization: the events and sessions it answered 2xx for. */
export class Promised {
  readonly eventIds = new Set<string>();
  anonymousEvents = 0;
  readonly sessionIds = new Set<string>();
  readonly requests: string[] = [];

  constructor(
    readonly orgId: string,
    readonly token: string,
  ) {}

  /** Items of an accepted request, read as the contract defines them (the API said every one was valid). */
  accept(route: string, body: Record<string, unknown>, curl: string): void {
    this.requests.push(curl);
    const items =
      route === '/v1/sessions/ingest' && !('events' in body) ? [body] : (body.events as Record<string, unknown>[]);
    for (const item of items) {
      if (typeof item.session_id === 'string') this.sessionIds.add(item.session_id.toLowerCase());
      if (!('action_type' in item)) continue;
      if (typeof item.event_id === 'string' && item.event_id !== '') {
        this.eventIds.add(this.eventIdOf(item.event_id, item.timestamp as string));
      } else this.anonymousEvents += 1;
    }
  }

  /**
   * The id a daemon's event_id at its instant is stored under, derived independently of the API's
   * code (docs/api/cloud.md): UUIDv5(org/event_id) for events timed before 2026-11-28, and from then
   * on that UUID with its first 48 bits the event's Unix milliseconds and its version 8.
   */
  private eventIdOf(clientEventId: string, timestamp: string): string {
    const v5 = uuidv5(Buffer.from(`${this.orgId}/${clientEventId}`, 'utf8'), '6f1f4c36-8f51-5b7e-9a55-6a2b1c1d0e01');
    const ms = Date.parse(timestamp);
    if (ms < Date.parse('2026-11-28T00:00:00Z')) return v5;
    const time = ms.toString(16).padStart(12, '0');
    return `${time.slice(0, 8)}-${time.slice(8)}-8${v5.slice(15)}`;
  }

  get expectedEvents(): number {
    return this.eventIds.size + this.anonymousEvents;
  }
}

async function listAll(apiUrl: string, token: string, path: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await call<Record<string, unknown>>(`${apiUrl}${path}?${query}`, { token });
    if (page.status !== 200) throw new Error(`${path} answered ${page.status}: ${JSON.stringify(page.body)}`);
    ids.push(...(page.body[key] as { id: string }[]).map((row) => row.id));
    cursor = page.body.next_cursor as string | null;
  } while (cursor);
  return ids;
}

export interface Stored {
  events: string[];
  sessions: string[];
}

/** Waits until the organization's read models hold as many events as promised, then returns what they hold. */
export async function storedFor(apiUrl: string, promised: Promised): Promise<Stored> {
  const events = await eventually(
    () => listAll(apiUrl, promised.token, '/v1/events', 'events'),
    (ids) => ids.length >= promised.expectedEvents,
    { what: `${promised.expectedEvents} events of organization ${promised.orgId}`, timeoutMs: 60_000 },
  ).catch(() => listAll(apiUrl, promised.token, '/v1/events', 'events'));
  const sessions = await eventually(
    () => listAll(apiUrl, promised.token, '/v1/sessions', 'sessions'),
    (ids) => ids.length >= promised.sessionIds.size,
    { what: `${promised.sessionIds.size} sessions of organization ${promised.orgId}`, timeoutMs: 60_000 },
  ).catch(() => listAll(apiUrl, promised.token, '/v1/sessions', 'sessions'));
  return { events, sessions };
}
