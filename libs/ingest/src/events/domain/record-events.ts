import { EventIngestItem, EventRecordedV1 } from '@agentwatch/contracts';
import { eventIdFor } from './event-ids';

export interface RecordingContext {
  orgId: string;
  machineId: string | null;
  receivedAt: Date;
  /** Server id for events that carry no client event_id (UUIDv7 in production). */
  newId: () => string;
}

// What daemons mostly send, and exactly what toISOString() would return for it, so it needs no parse.
// Days past the 28th (and hour 24) go through Date, which rolls them over.
const ALREADY_CANONICAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/**
 * Timestamps are kept to the millisecond: every layer (JSON, JavaScript dates, keyset cursors)
 * then agrees on the exact instant, so pagination can never skip or repeat an event.
 */
export const canonicalTime = (iso: string): string => (ALREADY_CANONICAL.test(iso) ? iso : new Date(iso).toISOString());

/**
 * Turns a validated ingest batch into the canonical records appended to `ingest.events.v1`. Items
 * that repeat an event_id and its instant are one event, as a retried batch is: the first of them is
 * kept. An event is its event_id at its instant (the id holds both: see eventIdFor).
 */
export function recordEvents(items: readonly EventIngestItem[], context: RecordingContext): EventRecordedV1[] {
  const receivedAt = context.receivedAt.toISOString();
  const seen = new Set<string>();
  const events: EventRecordedV1[] = [];
  for (const item of items) {
    const timestamp = canonicalTime(item.timestamp);
    const id = item.event_id ? eventIdFor(context.orgId, item.event_id, timestamp) : context.newId();
    if (item.event_id) {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    events.push({
      id,
      org_id: context.orgId,
      client_event_id: item.event_id ?? null,
      session_id: item.session_id ?? null,
      agent_id: item.agent_id ?? null,
      machine_id: context.machineId,
      action_type: item.action_type,
      tool_name: item.tool_name ?? null,
      arguments: item.arguments ?? [],
      decision: item.decision ?? 'allow',
      timestamp,
      received_at: receivedAt,
    });
  }
  return events;
}

/** Kafka key: the session is the ordering unit; events outside a session order per agent. */
export const eventKey = (event: EventRecordedV1): string => event.session_id ?? event.agent_id ?? event.id;
