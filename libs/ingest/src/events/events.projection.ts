import { EventRecordedV1 } from '@agentwatch/contracts';
import { byIndexLookups, lockEventRiskStripes } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

/**
 * The events read model: one row per accepted event. A replayed or re-delivered record is the same
 * (org_id, id) and is skipped, so applying a batch twice changes nothing. An event whose score was
 * projected first (event_risk) is inserted with it.
 */
@Controller()
export class EventsProjection {
  @EventPattern('events')
  async apply({ tx, records }: ProjectionBatch<EventRecordedV1>): Promise<void> {
    const events = records.map((r) => r.payload);
    // Held until commit, so a score committed meanwhile either is seen by the insert below or sees
    // these rows itself (EventRiskProjection).
    await lockEventRiskStripes(
      tx,
      'shared',
      events.map((e) => e.org_id),
      events.map((e) => e.session_id),
    );
    await byIndexLookups(tx, () =>
      tx.query(
        `INSERT INTO events (org_id, id, client_event_id, session_id, agent_id, machine_id, action_type, tool_name,
                             arguments, decision, "timestamp", received_at, risk_score, scored_at)
         SELECT e.*, r.risk_score, r.scored_at
           FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::jsonb[], $10::text[], $11::timestamptz[], $12::timestamptz[])
                AS e(org_id, id, client_event_id, session_id, agent_id, machine_id, action_type, tool_name,
                     arguments, decision, "timestamp", received_at)
           LEFT JOIN event_risk r ON r.org_id = e.org_id AND r.event_id = e.id
         ON CONFLICT (org_id, id) DO NOTHING`,
        [
          events.map((e) => e.org_id),
          events.map((e) => e.id),
          events.map((e) => e.client_event_id),
          events.map((e) => e.session_id),
          events.map((e) => e.agent_id),
          events.map((e) => e.machine_id),
          events.map((e) => e.action_type),
          events.map((e) => e.tool_name),
          events.map((e) => JSON.stringify(e.arguments)),
          events.map((e) => e.decision),
          events.map((e) => e.timestamp),
          events.map((e) => e.received_at),
        ],
      ),
    );
  }
}
