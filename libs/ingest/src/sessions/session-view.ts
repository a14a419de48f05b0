import { recordedDateTime, sessionRecordedV1 } from '@agentwatch/contracts';
import { z } from 'zod';

const recorded = sessionRecordedV1.shape;

/** A session as every read route returns it: the merged lifecycle records, and when it was last heard of. */
export const sessionView = z.object({
  id: recorded.session_id,
  session_name: recorded.session_name,
  model: recorded.model,
  signing_id: recorded.signing_id,
  state: recorded.state,
  platform: recorded.platform,
  parent_id: recorded.parent_id,
  started_at: recordedDateTime,
  ended_at: recordedDateTime.nullable(),
  last_seen_at: recordedDateTime,
});
export type SessionView = z.infer<typeof sessionView>;

/** `max_risk` and `avg_risk` are over the scored events, 0 while none is; `total_events` counts them all. */
export const riskSummary = z.object({
  total_events: z.number().int().nonnegative(),
  max_risk: z.number().int().min(0).max(100),
  avg_risk: z.number().min(0).max(100),
});

/** GET /v1/sessions/{id}: the session, its children oldest first, and its risk summary. */
export const sessionDetail = sessionView.extend({ children: z.array(sessionView), risk_summary: riskSummary });
export type SessionDetail = z.infer<typeof sessionDetail>;

/** GET /v1/sessions: a keyset page, newest first. */
export const sessionPage = z.object({ sessions: z.array(sessionView), next_cursor: z.string().nullable() });
export type SessionPage = z.infer<typeof sessionPage>;

/** GET /v1/sessions/{id}/children, oldest first. */
export const sessionChildren = z.object({ children: z.array(sessionView) });
export type SessionChildren = z.infer<typeof sessionChildren>;

export const SESSION_COLUMNS =
  'id, session_name, model, signing_id, state, platform, parent_id, started_at, ended_at, last_seen_at';

export interface SessionRow extends Omit<SessionView, 'started_at' | 'ended_at' | 'last_seen_at'> {
  started_at: Date;
  ended_at: Date | null;
  last_seen_at: Date;
}

export const toSessionView = (row: SessionRow): SessionView => ({
  ...row,
  started_at: row.started_at.toISOString(),
  ended_at: row.ended_at?.toISOString() ?? null,
  last_seen_at: row.last_seen_at.toISOString(),
});
