import { z } from 'zod';
import { isoDateTime, optionalString, storableText, TEXT_LIMITS, uuid } from './common';

export const ACTION_TYPES = ['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/**
 * The daemon's enforcement decision. The spec shows `allow` and leaves the set open; `block` is the
 * scope-violation outcome it describes, `warn` a monitor-mode finding. Absent means `allow`.
 */
export const DECISIONS = ['allow', 'warn', 'block'] as const;
export type Decision = (typeof DECISIONS)[number];

export const MAX_BATCH_ITEMS = 1000;

/** One item of `POST /v1/events/ingest` (spec §2 "Event ingest item fields"). */
export const eventIngestItem = z.object({
  /** Client id of the event: makes a retried batch idempotent (docs/api/cloud.md). */
  event_id: optionalString(TEXT_LIMITS.eventId),
  action_type: z.enum(ACTION_TYPES),
  timestamp: isoDateTime,
  tool_name: optionalString(TEXT_LIMITS.toolName),
  arguments: z.array(storableText(TEXT_LIMITS.argument)).max(1024).nullish(),
  session_id: uuid.nullish(),
  agent_id: optionalString(TEXT_LIMITS.agentId),
  decision: z.enum(DECISIONS).nullish(),
});
export type EventIngestItem = z.infer<typeof eventIngestItem>;

export const eventIngestBody = z.object({ events: z.array(eventIngestItem) });
export type EventIngestBody = z.infer<typeof eventIngestBody>;

/**
 * Payload of `ingest.events.v1`: the canonical event as accepted by the cloud. Consumers hold records
 * to the same domain as the edge, so a record appended before the edge tightened goes to the
 * dead-letter topic when it is read, not into a transaction the database refuses.
 */
export const eventRecordedV1 = z.object({
  id: uuid,
  org_id: uuid,
  client_event_id: storableText(TEXT_LIMITS.eventId).nullable(),
  session_id: uuid.nullable(),
  agent_id: storableText(TEXT_LIMITS.agentId).nullable(),
  machine_id: storableText(TEXT_LIMITS.agentId).nullable(),
  action_type: z.enum(ACTION_TYPES),
  tool_name: storableText(TEXT_LIMITS.toolName).nullable(),
  arguments: z.array(storableText(TEXT_LIMITS.argument)),
  decision: z.enum(DECISIONS),
  timestamp: isoDateTime,
  received_at: isoDateTime,
});
export type EventRecordedV1 = z.infer<typeof eventRecordedV1>;

export const EVENT_RECORDED_TYPE = 'agentwatch.ingest.event.v1';

/**
 * The development daemon shape `{event_id, action, agent, blocked, metadata}` accepted by
 * `POST /v1/ingest`: `action` names an action type (any case, with or without its domain prefix),
 * `blocked` gives the decision, `metadata` may carry tool_name/tool, arguments/args, path,
 * session_id and timestamp.
 */
export const daemonActionItem = z.object({
  event_id: optionalString(TEXT_LIMITS.eventId),
  action: z.string().min(1).max(64),
  agent: optionalString(TEXT_LIMITS.agentId),
  blocked: z.boolean().nullish(),
  timestamp: isoDateTime.nullish(),
  session_id: uuid.nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type DaemonActionItem = z.infer<typeof daemonActionItem>;
