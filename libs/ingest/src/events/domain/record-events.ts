import { EventIngestItem, EventRecordedV1 } from '@agentwatch/contracts';
import { v5 as uuidv5 } from 'uuid';

/** Namespace of event ids derived from a daemon's own event_id: UUIDv5(org/event_id). */
export const CLIENT_EVENT_NAMESPACE = '6f1f4c36-8f51-5b7e-9a55-6a2b1c1d0e01';

export interface RecordingContext {
  orgId: string;
  machineId: string | null;
  receivedAt: Date;
  /** Server id for events that carry no client event_id (UUIDv7 in production). */
  newId: () => string;
}

export const eventIdFor = (orgId: string, clientEventId: string) =>
  uuidv5(`${orgId}/${clientEventId}`, CLIENT_EVENT_NAMESPACE);

/**
 * Timestamps are kept to the millisecond: every layer (JSON, JavaScript dates, keyset cursors)
 * then agrees on the exact instant, so pagination can never skip or repeat an event.
 */
export const canonicalTime = (iso: string): string => new Date(iso).toISOString();

/** Turns a validated ingest batch into the canonical records appended to `ingest.events.v1`. */
export function recordEvents(items: readonly EventIngestItem[], context: RecordingContext): EventRecordedV1[] {
  const receivedAt = context.receivedAt.toISOString();
  return items.map((item) => ({
    id: item.event_id ? eventIdFor(context.orgId, item.event_id) : context.newId(),
    org_id: context.orgId,
    client_event_id: item.event_id ?? null,
    session_id: item.session_id ?? null,
    agent_id: item.agent_id ?? null,
    machine_id: context.machineId,
    action_type: item.action_type,
    tool_name: item.tool_name ?? null,
    arguments: item.arguments ?? [],
    decision: item.decision ?? 'allow',
    timestamp: canonicalTime(item.timestamp),
    received_at: receivedAt,
  }));
}

/** Kafka key: the session is the ordering unit; events outside a session order per agent. */
export const eventKey = (event: EventRecordedV1): string => event.session_id ?? event.agent_id ?? event.id;
