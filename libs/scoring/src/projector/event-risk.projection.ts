import { EventScoredV1 } from '@agentwatch/contracts';
import { byIndexLookups, lockEventRiskStripes } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

/**
 * The projector's side of scoring: copies each score onto the events read model (`risk_score`,
 * `scored_at`), so the cloud API filters by risk. `event_risk` keeps the score for an event not
 * projected yet; EventsProjection's insert picks it up from there. `decision` is never touched.
 */
@Controller()
export class EventRiskProjection {
  @EventPattern('event-risk')
  async apply({ tx, records }: ProjectionBatch<EventScoredV1>): Promise<void> {
    const scored = records.map((r) => r.payload).filter((s) => s.status === 'scored' && s.score !== null);
    if (scored.length === 0) return;
    const params = [
      scored.map((s) => s.org_id),
      scored.map((s) => s.event_id),
      scored.map((s) => s.score),
      scored.map((s) => s.scored_at),
    ];
    await tx.query(
      `INSERT INTO event_risk (org_id, event_id, risk_score, scored_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::timestamptz[])
       ON CONFLICT (org_id, event_id) DO NOTHING`,
      params,
    );
    // Waits for the events batches in flight with these sessions: their rows are visible to the UPDATE
    // once they committed, and batches that start now see event_risk.
    await lockEventRiskStripes(
      tx,
      'exclusive',
      scored.map((s) => s.org_id),
      scored.map((s) => s.session_id),
    );
    await byIndexLookups(tx, () =>
      tx.query(
        `UPDATE events e SET risk_score = s.risk_score, scored_at = s.scored_at
           FROM unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::timestamptz[]) AS s(org_id, event_id, risk_score, scored_at)
          WHERE e.org_id = s.org_id AND e.id = s.event_id AND e.risk_score IS NULL`,
        params,
      ),
    );
  }
}
