import { eventRecordedV1, recordedDateTime } from '@agentwatch/contracts';
import { z } from 'zod';

/**
 * An event as every read route returns it: the recorded event's own fields (their shapes are the
 * topic payload's), without what stays internal (organization, client id), plus the score copied
 * onto it. `risk_score` is null until the scoring worker scored it.
 */
export const eventView = eventRecordedV1
  .pick({
    id: true,
    session_id: true,
    agent_id: true,
    action_type: true,
    tool_name: true,
    arguments: true,
    decision: true,
    timestamp: true,
  })
  .extend({ risk_score: z.number().int().min(0).max(100).nullable() });
export type EventView = z.infer<typeof eventView>;

/** GET /v1/events/{id}: also when it arrived, when its score was copied, and which machine sent it. */
export const eventDetail = eventView.extend({
  received_at: recordedDateTime,
  scored_at: recordedDateTime.nullable(),
  machine_id: z.string().nullable(),
});
export type EventDetail = z.infer<typeof eventDetail>;

/** A keyset page of events (GET /v1/events, GET /v1/sessions/{id}/events); `next_cursor` null on the last. */
export const eventPage = z.object({ events: z.array(eventView), next_cursor: z.string().nullable() });
export type EventPage = z.infer<typeof eventPage>;

export const EVENT_COLUMNS =
  'id, session_id, agent_id, action_type, tool_name, arguments, risk_score, decision, "timestamp"';

export interface EventRow extends Omit<EventView, 'timestamp'> {
  timestamp: Date;
}

export const toEventView = (row: EventRow): EventView => ({ ...row, timestamp: row.timestamp.toISOString() });
