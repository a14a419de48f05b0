import { EventRecordedV1 } from '@agentwatch/contracts';
import { CopyColumn, CopyValue, copyRowsOnce } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

const COLUMNS: CopyColumn[] = [
  { name: 'org_id', type: 'uuid' },
  { name: 'id', type: 'uuid' },
  { name: 'client_event_id', type: 'text' },
  { name: 'session_id', type: 'uuid' },
  { name: 'agent_id', type: 'text' },
  { name: 'machine_id', type: 'text' },
  { name: 'action_type', type: 'text' },
  { name: 'tool_name', type: 'text' },
  { name: 'arguments', type: 'jsonb' },
  { name: 'decision', type: 'text' },
  { name: 'timestamp', type: 'timestamptz' },
  { name: 'received_at', type: 'timestamptz' },
];

const fieldsOf = (e: EventRecordedV1): CopyValue[] => [
  e.org_id,
  e.id,
  e.client_event_id,
  e.session_id,
  e.agent_id,
  e.machine_id,
  e.action_type,
  e.tool_name,
  JSON.stringify(e.arguments),
  e.decision,
  e.timestamp,
  e.received_at,
];

/**
 * The events read model: one row per accepted event, written once (its score is joined on read). A
 * replayed or re-delivered record is the same (org_id, id) and is skipped, so applying a batch twice
 * changes nothing.
 */
@Controller()
export class EventsProjection {
  @EventPattern('events')
  async apply({ tx, records }: ProjectionBatch<EventRecordedV1>): Promise<void> {
    const events = records.map((r) => r.payload);
    await copyRowsOnce(tx, 'events', COLUMNS, events.map(fieldsOf), () => insertSkippingKnown(tx, events));
  }
}

/** The batch again, for when COPY met an event stored already: those are skipped. */
function insertSkippingKnown(tx: ProjectionBatch['tx'], events: EventRecordedV1[]) {
  return tx.query(
    `INSERT INTO events (${COLUMNS.map((c) => `"${c.name}"`).join(', ')})
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::jsonb[], $10::text[], $11::timestamptz[], $12::timestamptz[])
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
  );
}
