import { randomUUID } from 'node:crypto';
import { EventRecordedV1 } from '@agentwatch/contracts';
import {
  bootstrapDatabase,
  databaseConfigFromEnv,
  grantPrivileges,
  MIGRATIONS,
  ownerDataSource,
  scratchDatabase,
} from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { insertScoreRow, insertScoreRowBeforeVerdicts } from '@agentwatch/testing';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { EventsProjection } from './events.projection';

type Counts = Record<string, number>;
interface CounterRow {
  hour: Date;
  key: string;
  count: string | number;
}

const tally = (rows: CounterRow[]) =>
  Object.fromEntries(rows.map((r) => [`${r.hour.toISOString()}|${r.key}`, Number(r.count)]));

/**
 * The hourly counters of one organization (events by action, decision and tool; scores by level,
 * under their event's hour), and the same figures aggregated from its events and its scores.
 */
async function countersAndTruth(client: Client, orgId: string): Promise<{ counters: Counts; truth: Counts }> {
  const query = async (sql: string) => tally((await client.query(sql, [orgId])).rows);
  const counters = {
    ...(await query(
      `SELECT hour, concat_ws('|', action_type, decision, tool_name) AS key, sum(count) AS count
         FROM event_hourly_counts WHERE org_id = $1 GROUP BY 1, 2 HAVING sum(count) <> 0`,
    )),
    ...(await query(
      `SELECT hour, 'level ' || risk_level AS key, sum(count) AS count
         FROM event_hourly_risk WHERE org_id = $1 GROUP BY 1, 2 HAVING sum(count) <> 0`,
    )),
  };
  const truth = {
    ...(await query(
      `SELECT date_trunc('hour', "timestamp", 'UTC') AS hour, concat_ws('|', action_type, decision, tool_name) AS key,
              count(*) AS count
         FROM events WHERE org_id = $1 GROUP BY 1, 2`,
    )),
    ...(await query(
      `SELECT date_trunc('hour', event_timestamp, 'UTC') AS hour, 'level ' || event_risk_level(score) AS key,
              count(*) AS count
         FROM event_scores WHERE org_id = $1 AND score IS NOT NULL GROUP BY 1, 2`,
    )),
  };
  return { counters, truth };
}

describe('hourly event counters (the stats read model) follow the events and their scores', () => {
  const config = databaseConfigFromEnv();
  const orgId = randomUUID();
  let dataSource: DataSource;
  let client: Client;

  const event = (timestamp: string, overrides: Partial<EventRecordedV1> = {}): EventRecordedV1 => ({
    id: randomUUID(),
    org_id: orgId,
    client_event_id: null,
    session_id: null,
    agent_id: null,
    machine_id: 'm-1',
    action_type: 'FILE_READ',
    tool_name: 'cat',
    arguments: [],
    decision: 'allow',
    timestamp,
    received_at: timestamp,
    ...overrides,
  });
  // In a transaction of its own unless given one, as the projection runner gives each batch.
  const project = (events: EventRecordedV1[], given?: EntityManager): Promise<void> =>
    given ? projectIn(given, events) : dataSource.transaction((tx) => projectIn(tx, events));
  const projectIn = (tx: EntityManager, events: EventRecordedV1[]) =>
    new EventsProjection().apply({
      tx,
      topic: 'ingest.events.v1',
      records: events.map((payload, i) => ({
        id: payload.id,
        type: 't',
        orgId,
        payload,
        partition: 0,
        offset: String(i),
      })),
    } as ProjectionBatch<EventRecordedV1>);

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: config.projectorUrl }).initialize();
    client = new Client({ connectionString: config.projectorUrl });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dataSource?.destroy();
  });

  it('counts each projected event once per UTC hour and key, a re-delivered batch not again', async () => {
    const batch = [
      event('2026-11-23T05:00:00.000Z'),
      event('2026-11-23T05:59:59.999Z'),
      event('2026-11-23T06:00:00.000Z', { decision: 'block' }),
      event('2026-11-23T06:10:00.000+01:00', { tool_name: null, action_type: 'NETWORK_CONNECT' }),
      event('2026-11-23T06:20:00.000Z', { tool_name: null, action_type: 'NETWORK_CONNECT' }),
    ];
    await project(batch);
    await project(batch);

    const { counters, truth } = await countersAndTruth(client, orgId);
    expect(counters).toEqual(truth);
    expect(counters).toEqual({
      '2026-11-23T05:00:00.000Z|FILE_READ|allow|cat': 2,
      '2026-11-23T05:00:00.000Z|NETWORK_CONNECT|allow': 1,
      '2026-11-23T06:00:00.000Z|FILE_READ|block|cat': 1,
      '2026-11-23T06:00:00.000Z|NETWORK_CONNECT|allow': 1,
    });
  });

  it('counts a scored event at its level, once, a failed score not at all, and forgets deleted rows', async () => {
    const [low, critical, failed, gone] = [
      event('2026-11-20T10:00:00Z'),
      event('2026-11-20T10:30:00Z'),
      event('2026-11-20T10:40:00Z'),
      event('2026-11-20T10:45:00Z'),
    ];
    await project([low, critical, failed, gone]);
    const score = (e: EventRecordedV1, value: number | null) =>
      insertScoreRow(client, { orgId, eventId: e.id, score: value, eventTimestamp: e.timestamp });
    await score(low, 10);
    await score(critical, 90);
    await score(critical, 90);
    await score(failed, null);
    await score(gone, 30);
    await client.query('DELETE FROM events WHERE org_id = $1 AND id = $2', [orgId, gone.id]);
    await client.query('DELETE FROM event_scores WHERE org_id = $1 AND event_id = $2', [orgId, gone.id]);

    const { counters, truth } = await countersAndTruth(client, orgId);
    expect(counters).toEqual(truth);
    expect(Object.fromEntries(Object.entries(counters).filter(([key]) => key.startsWith('2026-11-20')))).toEqual({
      '2026-11-20T10:00:00.000Z|FILE_READ|allow|cat': 3,
      '2026-11-20T10:00:00.000Z|level low': 1,
      '2026-11-20T10:00:00.000Z|level critical': 1,
    });
  });

  it('counts a score written before its event is projected at its level at once, under its event hour', async () => {
    const early = event('2026-11-19T03:15:00Z');
    await insertScoreRow(client, { orgId, eventId: early.id, score: 55, eventTimestamp: early.timestamp });
    expect((await countersAndTruth(client, orgId)).counters['2026-11-19T03:00:00.000Z|level high']).toBe(1);
    await project([early]);
    const { counters, truth } = await countersAndTruth(client, orgId);
    expect(counters).toEqual(truth);
    expect(counters['2026-11-19T03:00:00.000Z|level high']).toBe(1);
    expect(counters['2026-11-19T03:00:00.000Z|FILE_READ|allow|cat']).toBe(1);
  });

  it('refuses to update an event, so no update can skew the counters', async () => {
    const kept = event('2026-11-18T12:00:00Z');
    await project([kept]);
    for (const change of [
      `action_type = 'FILE_WRITE'`,
      `"timestamp" = now()`,
      `tool_name = NULL`,
      `decision = 'block'`,
    ]) {
      await expect(
        client.query(`UPDATE events SET ${change} WHERE org_id = $1 AND id = $2`, [orgId, kept.id]),
      ).rejects.toThrow('events are append-only');
    }
    const { counters, truth } = await countersAndTruth(client, orgId);
    expect(counters).toEqual(truth);
  });

  it('loses no count when two batches of the same counters commit at once, their events in opposite orders', async () => {
    const hour = '2026-11-21T08:';
    const actions = ['FILE_READ', 'FILE_WRITE', 'PROCESS_EXEC', 'NETWORK_CONNECT'] as const;
    const first = actions.map((action_type, i) => event(`${hour}0${i}:00Z`, { action_type }));
    const second = first.map((e) => event(e.timestamp, { action_type: e.action_type })).reverse();
    await Promise.all([
      dataSource.transaction(async (tx) => {
        await project(first, tx);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }),
      dataSource.transaction((tx) => project(second, tx)),
    ]);
    const { counters, truth } = await countersAndTruth(client, orgId);
    expect(counters).toEqual(truth);
    expect(counters['2026-11-21T08:00:00.000Z|FILE_WRITE|allow|cat']).toBe(2);
  });
});

describe('the hourly counters migration', () => {
  const { config, drop: dropScratch } = scratchDatabase('counters');
  const orgId = randomUUID();

  afterAll(dropScratch);

  it('counts the events a database already holds', async () => {
    await dropScratch();
    await bootstrapDatabase(config);
    const owner = await ownerDataSource(config).initialize();
    const projector = new Client({ connectionString: config.projectorUrl });
    await projector.connect();
    try {
      const later = MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.name === 'EventHourlyCounts1732492800000'));
      for (const _ of later) await owner.undoLastMigration();
      await grantPrivileges(owner); // tables that undoing brought back (event_risk)
      await projector.query(
        `INSERT INTO events (org_id, id, action_type, tool_name, decision, risk_score, "timestamp", received_at)
         SELECT $1, gen_random_uuid(), (ARRAY['FILE_READ', 'PROCESS_EXEC'])[1 + n % 2], 'tool-' || (n % 3), 'allow',
                CASE WHEN n % 4 = 0 THEN NULL ELSE (n * 7) % 101 END, now() - n * interval '7 minutes', now()
           FROM generate_series(1, 500) n`,
        [orgId],
      );
      // Each score an event held came from its row in event_scores.
      const scored = await projector.query(
        `SELECT id, risk_score, "timestamp" FROM events WHERE org_id = $1 AND risk_score IS NOT NULL`,
        [orgId],
      );
      for (const e of scored.rows) {
        await insertScoreRowBeforeVerdicts(projector, {
          orgId,
          eventId: e.id,
          score: e.risk_score,
          eventTimestamp: e.timestamp.toISOString(),
        });
      }
      // Set-up run again on the older database: what `npm start` does after an upgrade.
      expect(await bootstrapDatabase(config)).toEqual(later.map((m) => m.name));

      const { counters, truth } = await countersAndTruth(projector, orgId);
      const sum = (level: boolean) =>
        Object.entries(counters)
          .filter(([key]) => key.includes('|level ') === level)
          .reduce((total, [, n]) => total + n, 0);
      expect([sum(false), sum(true)]).toEqual([500, 375]);
      expect(counters).toEqual(truth);
      // The back-fills lifted row-level security on events only for themselves.
      const forced = async () =>
        (await projector.query(`SELECT relforcerowsecurity FROM pg_class WHERE relname = 'events'`)).rows[0]
          .relforcerowsecurity;
      expect(await forced()).toBe(true);

      // Undone, EventHourlyRisk leaves the combined counters of EventHourlyCounts, counted from the events.
      const sinceRisk = MIGRATIONS.slice(MIGRATIONS.findIndex((m) => m.name === 'EventHourlyRisk1732752000000'));
      for (const _ of sinceRisk) await owner.undoLastMigration();
      await grantPrivileges(owner);
      const combined = await projector.query(
        `SELECT concat_ws('|', hour, action_type, decision, risk_level, tool_name) AS key, sum(count)::int AS count
           FROM event_hourly_counts WHERE org_id = $1 GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`,
        [orgId],
      );
      const combinedTruth = await projector.query(
        `SELECT concat_ws('|', date_trunc('hour', "timestamp", 'UTC'), action_type, decision,
                          event_risk_level(risk_score), tool_name) AS key, count(*)::int AS count
           FROM events WHERE org_id = $1 GROUP BY 1 ORDER BY 1`,
        [orgId],
      );
      expect(combined.rows).toEqual(combinedTruth.rows);
      expect(combined.rows.length).toBeGreaterThan(10);
      expect(await forced()).toBe(true);
    } finally {
      await projector.end();
      await owner.destroy();
    }
  });
});
