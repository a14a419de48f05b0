import { CheckinRecordedV1 } from '@agentwatch/contracts';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { decide } from '../domain/flow';
import { appendToFlow, loadFlow } from '../journal/journal';

/**
 * The tenant's first daemon check-in (`ingest.checkins.v1`) activates its flow. Runs in the batch's
 * checkpoint transaction, so a redelivered check-in is never applied twice; a check-in that comes
 * before the flow awaits one is remembered and consumed by the engine's await-checkin step.
 */
@Controller()
export class CheckinsConsumer {
  @EventPattern('tenancy-checkins')
  async apply({ tx, records }: ProjectionBatch<CheckinRecordedV1>): Promise<void> {
    for (const { payload } of records) {
      await tx.query(
        `INSERT INTO tenancy_checkins (org_id, machine_id, checked_in_at) VALUES ($1, $2, $3)
         ON CONFLICT (org_id) DO NOTHING`,
        [payload.org_id, payload.machine_id, payload.timestamp],
      );
      const [flow] = await tx.query(
        `SELECT stream_id FROM tenancy_flows WHERE org_id = $1 AND kind = 'onboard' AND live
           AND state = 'awaiting-first-checkin'`,
        [payload.org_id],
      );
      if (!flow) continue;
      await tx.query('SELECT 1 FROM tenancy_flows WHERE stream_id = $1 FOR UPDATE', [flow.stream_id]);
      const { state, version } = await loadFlow(tx, flow.stream_id);
      const ctx = { actor: 'system:checkins', role: 'system' as const, now: new Date().toISOString() };
      const events = decide(
        {
          type: 'RecordFirstCheckin',
          machineId: payload.machine_id,
          checkedInAt: new Date(payload.timestamp).toISOString(),
        },
        state,
        ctx,
      );
      await appendToFlow(tx, flow.stream_id, version, state, events);
    }
  }
}
