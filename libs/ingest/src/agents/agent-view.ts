import { recordedDateTime } from '@agentwatch/contracts';
import { z } from 'zod';

/** An agent seen in events; `platform` and `signing_id` are its latest session's (null without one). */
export const agentView = z.object({
  id: z.string(),
  platform: z.string().nullable(),
  signing_id: z.string().nullable(),
  first_seen: recordedDateTime,
  last_seen: recordedDateTime,
});
export type AgentView = z.infer<typeof agentView>;

/** GET /v1/agents, most recently seen first: a keyset page, or every agent with `next_cursor` null. */
export const agentPage = z.object({ agents: z.array(agentView), next_cursor: z.string().nullable() });
export type AgentPage = z.infer<typeof agentPage>;

export interface AgentRow extends Omit<AgentView, 'first_seen' | 'last_seen'> {
  first_seen: Date;
  last_seen: Date;
}

export const toAgentView = (r: AgentRow): AgentView => ({
  id: r.id,
  platform: r.platform,
  signing_id: r.signing_id,
  first_seen: r.first_seen.toISOString(),
  last_seen: r.last_seen.toISOString(),
});
