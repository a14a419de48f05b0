import { EventScoredV1 } from '@agentwatch/contracts';
import { byIndexLookups, lockEventRiskStripes } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

/**
 * The projector's side of scoring: copies each score onto the events read model (`risk_score`,
 * `scored_at`), so the cloud API filters by risk. A score whose event is not projected yet waits in
 * `event_risk`, where EventsProjection's insert picks it up. `decision` is never touched.
 */
@Controller()
export class EventRiskProjection {
  @EventPattern('event-risk')
  async apply({ tx, records }: ProjectionBatch<EventScoredV1>): Promise<void> {
    const scored = records.map((r) => r.payload).filter((s) => s.status === 'scored' && s.score !== null);
    if (scored.length === 0) return;
    // Waits for the events batches in flight with these sessions: their rows are visible to the
    // statement below once they committed, and batches that start now see what it leaves in event_risk.
    await lockEventRiskStripes(
      tx,
      'exclusive',
      scored.map((s) => s.org_id),
      scored.map((s) => s.session_id),
    );
    // One statement, so both halves see the same events rows: each score lands in exactly one place.
    // Only the scores of events not projected yet are kept in event_risk; storing every score there
    // as well cost a second row and index entry per event (see docs/adr/0006-postgres-cost-per-scored-event.md).
    await byIndexLookups(tx, () =>
      tx.query(
        `WITH score AS (
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::timestamptz[])
                      AS s(org_id, event_id, risk_score, scored_at)
         ), copied AS (
           UPDATE events e SET risk_score = score.risk_score, scored_at = score.scored_at
             FROM score
            WHERE e.org_id = score.org_id AND e.id = score.event_id AND e.risk_score IS NULL
         )
         INSERT INTO event_risk (org_id, event_id, risk_score, scored_at)
         SELECT * FROM score
          WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.org_id = score.org_id AND e.id = score.event_id)
         ON CONFLICT (org_id, event_id) DO NOTHING`,
        [
          scored.map((s) => s.org_id),
          scored.map((s) => s.event_id),
          scored.map((s) => s.score),
          scored.map((s) => s.scored_at),
        ],
      ),
    );
  }
}
