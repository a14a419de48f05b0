import { EventRecordedV1, SessionRecordedV1, TOPICS } from '@agentwatch/contracts';
import { ProjectedRecord, ProjectionBatch, prepared } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { EntityManager } from 'typeorm';

/**
 * The sessions read model, merged from lifecycle records and from events. The merge is written so
 * that the order in which records arrive does not matter (docs/api/cloud.md; the pure model in
 * domain/session-merge.ts is checked against this SQL on Postgres):
 * - `ended` is final, dated by the earliest `ended` record;
 * - otherwise the record with the latest timestamp sets the state: a late, older record never
 *   regresses it;
 * - each metadata column keeps the value of the newest record that reported one, dated by its own
 *   `<column>_at`; records of the same time tie-break on the greater value (byte order), and a
 *   missing field never erases a known one;
 * - started_at / last_seen_at are the earliest / latest time seen, events included.
 * A session known only from events is `active` from its first event, and any lifecycle record
 * overrides that (its state_at is -infinity).
 *
 * The per-column times are plain timestamptz columns rather than one jsonb of times: fixed width,
 * free while NULL (a column has no time until it has a value), compared natively in the upsert,
 * where a jsonb would be built, decoded and cast for every record of the hot path.
 */
const METADATA_COLUMNS = [
  { column: 'session_name', type: 'text' },
  { column: 'model', type: 'text' },
  { column: 'signing_id', type: 'text' },
  { column: 'platform', type: 'text' },
  { column: 'parent_id', type: 'uuid' },
] as const;

/** Whether the record's value replaces the row's: a greatest (time, value) per column; text in byte order. */
function newerValue({ column, type }: (typeof METADATA_COLUMNS)[number]): string {
  const collate = type === 'text' ? ' COLLATE "C"' : '';
  return `EXCLUDED.${column} IS NOT NULL AND (s.${column} IS NULL
            OR (EXCLUDED.${column}_at, EXCLUDED.${column}${collate}) > (s.${column}_at, s.${column}${collate}))`;
}

const MERGE_LIFECYCLE = prepared(`
  INSERT INTO sessions AS s (org_id, id, ${METADATA_COLUMNS.map(({ column }) => `${column}, ${column}_at`).join(', ')},
                             state, state_at, started_at, ended_at, last_seen_at)
  SELECT org_id, id, ${METADATA_COLUMNS.map(({ column }) => `${column}, CASE WHEN ${column} IS NOT NULL THEN at END`).join(', ')},
         state, at, at, CASE WHEN state = 'ended' THEN at END, at
    FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::uuid[], $8::text[], $9::timestamptz[])
      AS r(org_id, id, session_name, model, signing_id, platform, parent_id, state, at)
  ON CONFLICT (org_id, id) DO UPDATE SET
    state = CASE
      WHEN s.state = 'ended' OR EXCLUDED.state = 'ended' THEN 'ended'
      WHEN (EXCLUDED.state_at, EXCLUDED.state) > (s.state_at, s.state) THEN EXCLUDED.state
      ELSE s.state END,
    state_at = CASE
      WHEN s.state = 'ended' AND EXCLUDED.state = 'ended' THEN LEAST(s.state_at, EXCLUDED.state_at)
      WHEN s.state = 'ended' THEN s.state_at
      WHEN EXCLUDED.state = 'ended' THEN EXCLUDED.state_at
      ELSE GREATEST(s.state_at, EXCLUDED.state_at) END,
    ended_at = LEAST(s.ended_at, EXCLUDED.ended_at),
    started_at = LEAST(s.started_at, EXCLUDED.started_at),
    last_seen_at = GREATEST(s.last_seen_at, EXCLUDED.last_seen_at),
    ${METADATA_COLUMNS.map(
      (metadata) =>
        `${metadata.column} = CASE WHEN ${newerValue(metadata)} THEN EXCLUDED.${metadata.column} ELSE s.${metadata.column} END,
    ${metadata.column}_at = CASE WHEN ${newerValue(metadata)} THEN EXCLUDED.${metadata.column}_at ELSE s.${metadata.column}_at END`,
    ).join(',\n    ')}`);

const TOUCH_FROM_EVENTS = prepared(`
  INSERT INTO sessions AS s (org_id, id, state, state_at, started_at, last_seen_at)
  SELECT org_id, id, 'active', '-infinity', first_at, last_at
    FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[]) AS r(org_id, id, first_at, last_at)
  ON CONFLICT (org_id, id) DO UPDATE SET
    started_at = LEAST(s.started_at, EXCLUDED.started_at),
    last_seen_at = GREATEST(s.last_seen_at, EXCLUDED.last_seen_at)`);

/** Splits records so that no session appears twice in one statement (Postgres refuses that in an upsert). */
export function inRounds<T>(items: T[], keyOf: (item: T) => string): T[][] {
  const seen = new Map<string, number>();
  const rounds: T[][] = [];
  for (const item of items) {
    const key = keyOf(item);
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    if (round === rounds.length) rounds.push([]);
    rounds[round].push(item);
  }
  return rounds;
}

async function mergeLifecycle(tx: EntityManager, records: ProjectedRecord<SessionRecordedV1>[]): Promise<void> {
  for (const round of inRounds(
    records.map((r) => r.payload),
    (s) => `${s.org_id}/${s.session_id}`,
  )) {
    await tx.query(MERGE_LIFECYCLE, [
      round.map((s) => s.org_id),
      round.map((s) => s.session_id),
      round.map((s) => s.session_name),
      round.map((s) => s.model),
      round.map((s) => s.signing_id),
      round.map((s) => s.platform),
      round.map((s) => s.parent_id),
      round.map((s) => s.state),
      round.map((s) => s.timestamp),
    ]);
  }
}

async function touchFromEvents(tx: EntityManager, records: ProjectedRecord<EventRecordedV1>[]): Promise<void> {
  const spans = new Map<string, { org: string; id: string; first: string; last: string }>();
  for (const { payload: e } of records) {
    if (!e.session_id) continue;
    const key = `${e.org_id}/${e.session_id}`;
    const span = spans.get(key);
    if (!span) spans.set(key, { org: e.org_id, id: e.session_id, first: e.timestamp, last: e.timestamp });
    else {
      if (e.timestamp < span.first) span.first = e.timestamp;
      if (e.timestamp > span.last) span.last = e.timestamp;
    }
  }
  if (spans.size === 0) return;
  const all = [...spans.values()];
  await tx.query(TOUCH_FROM_EVENTS, [
    all.map((s) => s.org),
    all.map((s) => s.id),
    all.map((s) => s.first),
    all.map((s) => s.last),
  ]);
}

/**
 * Batches of the sessions topic and of the events topic are applied concurrently and touch the
 * same rows; taking every session's lock up front, in one global order, rules out deadlocks.
 */
async function lockSessions(tx: EntityManager, keys: string[]): Promise<void> {
  await tx.query(
    prepared(
      `SELECT pg_advisory_xact_lock(k) FROM (SELECT DISTINCT hashtextextended(key, 0) AS k FROM unnest($1::text[]) AS key ORDER BY 1) AS ordered`,
    ),
    [keys],
  );
}

const sessionKey = (orgId: string, sessionId: string) => `${orgId}/${sessionId}`;

@Controller()
export class SessionsProjection {
  @EventPattern('sessions')
  async apply({ tx, topic, records }: ProjectionBatch<SessionRecordedV1 | EventRecordedV1>): Promise<void> {
    await lockSessions(
      tx,
      records.flatMap(({ payload }) => (payload.session_id ? [sessionKey(payload.org_id, payload.session_id)] : [])),
    );
    if (topic === TOPICS.ingestSessions.name) await mergeLifecycle(tx, records as ProjectedRecord<SessionRecordedV1>[]);
    else await touchFromEvents(tx, records as ProjectedRecord<EventRecordedV1>[]);
  }
}
