import { SessionState } from '@agentwatch/contracts';

export interface SessionView {
  id: string;
  session_name: string | null;
  model: string | null;
  signing_id: string | null;
  state: SessionState;
  platform: string | null;
  parent_id: string | null;
  started_at: string;
  ended_at: string | null;
  last_seen_at: string;
}

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
