import { eventRecordedV1, recordedDateTime } from '@agentwatch/contracts';
import { z } from 'zod';

/**
 * An event as every read route returns it: the recorded event's own fields (their shapes are the
 * topic payload's), without what stays internal (organization, client id), plus its score.
 * `risk_score` is null until the scoring worker scored it, and stays null when scoring failed.
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

/** GET /v1/events/{id}: also when it arrived, when it was scored, and which machine sent it. */
export const eventDetail = eventView.extend({
  received_at: recordedDateTime,
  scored_at: recordedDateTime.nullable(),
  machine_id: z.string().nullable(),
});
export type EventDetail = z.infer<typeof eventDetail>;

/** A keyset page of events (GET /v1/events, GET /v1/sessions/{id}/events); `next_cursor` null on the last. */
export const eventPage = z.object({ events: z.array(eventView), next_cursor: z.string().nullable() });
export type EventPage = z.infer<typeof eventPage>;

/**
 * An event is written once and its score once (docs/adr/0015-scores-read-by-join.md): every read
 * route joins them. A failed score has no risk: its event reads as unscored.
 */
export const EVENTS_WITH_SCORES =
  'events e LEFT JOIN event_scores s ON s.org_id = e.org_id AND s.event_id = e.id AND s.score IS NOT NULL';

/** The columns of EventView from EVENTS_WITH_SCORES. */
export const EVENT_COLUMNS =
  'e.id, e.session_id, e.agent_id, e.action_type, e.tool_name, e.arguments, s.score AS risk_score, e.decision, e."timestamp"';

export interface EventRow extends Omit<EventView, 'timestamp'> {
  timestamp: Date;
}

export const toEventView = (row: EventRow): EventView => ({ ...row, timestamp: row.timestamp.toISOString() });
