import { z } from 'zod';
import { isoDateTime, optionalString, recordedDateTime, recordedUuid, TEXT_LIMITS, uuid } from './common';

export const SESSION_STATES = ['active', 'idle', 'ended'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** A session that is its own parent has no meaning the tree could show: refused, not guessed at. */
const notItsOwnParent = (record: { session_id: string; parent_id?: string | null }) =>
  record.parent_id !== record.session_id;
const SELF_PARENT = { message: 'must not be the session itself', path: ['parent_id'] };

/** The flat session lifecycle record of `POST /v1/sessions/ingest` (spec §2). */
export const sessionIngestRecord = z
  .object({
    session_id: uuid,
    state: z.enum(SESSION_STATES),
    timestamp: isoDateTime,
    session_name: optionalString(TEXT_LIMITS.sessionName),
    model: optionalString(TEXT_LIMITS.model),
    signing_id: optionalString(TEXT_LIMITS.signingId),
    platform: optionalString(TEXT_LIMITS.platform),
    parent_id: uuid.nullish(),
  })
  .refine(notItsOwnParent, SELF_PARENT);
export type SessionIngestRecord = z.infer<typeof sessionIngestRecord>;

/**
 * An item of the development wrapper `{events:[…]}` of session lifecycle records. `session_start`
 * happens at `started_at` (else `timestamp`), `session_end` at `ended_at` (else `timestamp`).
 * action_count and message_count are accepted and not stored: the spec gives them no home.
 */
export const sessionLifecycleItem = z
  .object({
    event_type: z.enum(['session_start', 'session_end']),
    session_id: uuid,
    timestamp: isoDateTime.nullish(),
    started_at: isoDateTime.nullish(),
    ended_at: isoDateTime.nullish(),
    session_name: optionalString(TEXT_LIMITS.sessionName),
    model: optionalString(TEXT_LIMITS.model),
    signing_id: optionalString(TEXT_LIMITS.signingId),
    platform: optionalString(TEXT_LIMITS.platform),
    parent_id: uuid.nullish(),
    action_count: z.number().int().nonnegative().nullish(),
    message_count: z.number().int().nonnegative().nullish(),
  })
  .refine((item) => (item.event_type === 'session_start' ? item.started_at : item.ended_at) ?? item.timestamp, {
    message: 'a session_start needs started_at or timestamp; a session_end needs ended_at or timestamp',
    path: ['timestamp'],
  })
  .refine(notItsOwnParent, SELF_PARENT);
export type SessionLifecycleItem = z.infer<typeof sessionLifecycleItem>;

export const sessionLifecycleBody = z.object({ events: z.array(sessionLifecycleItem) });

/** Payload of `ingest.sessions.v1`. Absent optional fields mean "not reported", so they never erase. */
export const sessionRecordedV1 = z.object({
  id: recordedUuid,
  org_id: recordedUuid,
  session_id: recordedUuid,
  state: z.enum(SESSION_STATES),
  timestamp: recordedDateTime,
  session_name: z.string().nullable(),
  model: z.string().nullable(),
  signing_id: z.string().nullable(),
  platform: z.string().nullable(),
  parent_id: recordedUuid.nullable(),
  received_at: recordedDateTime,
});
export type SessionRecordedV1 = z.infer<typeof sessionRecordedV1>;

export const SESSION_RECORDED_TYPE = 'agentwatch.ingest.session.v1';
