import type { EventIngestItem } from '@agentwatch/contracts';

/**
 * A freshness marker: an ordinary event in a session of its own, so a read of that session's events
 * tells whether it is queryable and (its risk_score no longer null) scored.
 */
export const markerEvent = (sessionId: string, timestampMs: number): EventIngestItem => ({
  action_type: 'FILE_READ',
  timestamp: new Date(timestampMs).toISOString(),
  tool_name: 'Read',
  arguments: ['bench/marker.txt'],
  session_id: sessionId,
  agent_id: 'bench-marker',
});
