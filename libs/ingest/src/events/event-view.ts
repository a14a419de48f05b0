import { ActionType, Decision } from '@agentwatch/contracts';

/** An event as every read route returns it. `risk_score` is null until the scoring worker scored it. */
export interface EventView {
  id: string;
  session_id: string | null;
  agent_id: string | null;
  action_type: ActionType;
  tool_name: string | null;
  arguments: string[];
  risk_score: number | null;
  decision: Decision;
  timestamp: string;
}

export const EVENT_COLUMNS =
  'id, session_id, agent_id, action_type, tool_name, arguments, risk_score, decision, "timestamp"';

export interface EventRow extends Omit<EventView, 'timestamp'> {
  timestamp: Date;
}

export const toEventView = (row: EventRow): EventView => ({ ...row, timestamp: row.timestamp.toISOString() });
