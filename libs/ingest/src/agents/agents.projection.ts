import { EventRecordedV1 } from '@agentwatch/contracts';
import { ProjectionBatch, prepared } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

/**
 * Agents seen in events: first and last time, and the session of the latest event, through which
 * the agent's platform and signing id are read (they arrive on session records, not on events, and a
 * join at read time keeps both read models independent of the order they are projected in).
 */
@Controller()
export class AgentsProjection {
  @EventPattern('agents')
  async apply({ tx, records }: ProjectionBatch<EventRecordedV1>): Promise<void> {
    const agents = new Map<string, { org: string; id: string; first: string; last: string; session: string | null }>();
    for (const { payload: e } of records) {
      if (!e.agent_id) continue;
      const key = `${e.org_id}/${e.agent_id}`;
      const agent = agents.get(key);
      if (!agent)
        agents.set(key, {
          org: e.org_id,
          id: e.agent_id,
          first: e.timestamp,
          last: e.timestamp,
          session: e.session_id,
        });
      else {
        if (e.timestamp < agent.first) agent.first = e.timestamp;
        if (e.timestamp >= agent.last) {
          agent.last = e.timestamp;
          agent.session = e.session_id ?? agent.session;
        }
      }
    }
    if (agents.size === 0) return;
    // One statement in key order: concurrent batches lock shared agents in the same order.
    const all = [...agents.values()].sort((a, b) => (a.org + a.id < b.org + b.id ? -1 : 1));
    await tx.query(
      prepared(`INSERT INTO agents AS a (org_id, id, first_seen, last_seen, last_session_id)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::uuid[])
       ON CONFLICT (org_id, id) DO UPDATE SET
         first_seen = LEAST(a.first_seen, EXCLUDED.first_seen),
         last_seen = GREATEST(a.last_seen, EXCLUDED.last_seen),
         last_session_id = CASE WHEN EXCLUDED.last_seen >= a.last_seen THEN COALESCE(EXCLUDED.last_session_id, a.last_session_id)
                                ELSE a.last_session_id END`),
      [
        all.map((a) => a.org),
        all.map((a) => a.id),
        all.map((a) => a.first),
        all.map((a) => a.last),
        all.map((a) => a.session),
      ],
    );
  }
}
