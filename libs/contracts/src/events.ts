import { z } from 'zod';
import { isoDateTime, optionalString, recordedDateTime, recordedUuid, storableText, TEXT_LIMITS, uuid } from './common';

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

/** Payload of `ingest.events.v1`: the canonical event as accepted by the cloud (its shape; see recordedUuid). */
export const eventRecordedV1 = z.object({
  id: recordedUuid,
  org_id: recordedUuid,
  client_event_id: z.string().nullable(),
  session_id: recordedUuid.nullable(),
  agent_id: z.string().nullable(),
  machine_id: z.string().nullable(),
  action_type: z.enum(ACTION_TYPES),
  tool_name: z.string().nullable(),
  arguments: z.array(z.string()),
  decision: z.enum(DECISIONS),
  timestamp: recordedDateTime,
  received_at: recordedDateTime,
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
