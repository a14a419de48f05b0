import { randomUUID } from 'node:crypto';
import { insertScoreRow, insertScoreRowBeforeVerdicts } from '@agentwatch/testing';
import { Client } from 'pg';
import { bootstrapDatabase, grantPrivileges, ownerDataSource, scratchDatabase } from './bootstrap';
import { MIGRATIONS } from './migrations';
import { ScoresReadByJoin1733529600000 } from './migrations/1733529600000-scores-read-by-join';

// This migration and every later one: undone to reach the older schema, applied again by set-up.
const fromThisOne = MIGRATIONS.slice(MIGRATIONS.indexOf(ScoresReadByJoin1733529600000)).map((m) => m.name);

const HOUR = '2026-10-01T08:00:00.000Z';

describe('the migration to scores read by join', () => {
  const { config, drop: dropScratch } = scratchDatabase('join');
  const orgId = randomUUID();
  const [scored, waiting, unscored, failed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  afterAll(dropScratch);

  it('counts risk levels from event_scores, makes events append-only, and puts the copied scores back when undone', async () => {
    await dropScratch();
    await bootstrapDatabase(config);
    const owner = await ownerDataSource(config).initialize();
    const projector = new Client({ connectionString: config.projectorUrl });
    await projector.connect();
    const insertScore = (eventId: string, score: number | null) =>
      insertScoreRow(projector, { orgId, eventId, score, eventTimestamp: HOUR });
    const insertOlderScore = (eventId: string, score: number | null) =>
      insertScoreRowBeforeVerdicts(projector, { orgId, eventId, score, eventTimestamp: HOUR });
    const levels = async () =>
      (
        await projector.query(
          `SELECT risk_level, sum(count)::int AS count FROM event_hourly_risk WHERE org_id = $1 AND hour = $2
            GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`,
          [orgId, HOUR],
        )
      ).rows;
    try {
      for (const _ of fromThisOne) await owner.undoLastMigration();
      await grantPrivileges(owner); // event_risk is back
      // What the older projections left: a score copied onto its event, one waiting for its event in
      // event_risk, an unscored event, and a failed score that never reached the events.
      await projector.query(
        `INSERT INTO events (org_id, id, action_type, decision, risk_score, scored_at, "timestamp", received_at)
         VALUES ($1, $2, 'FILE_READ', 'allow', 80, now(), $4, now()),
                ($1, $3, 'FILE_READ', 'allow', NULL, NULL, $4, now())`,
        [orgId, scored, unscored, HOUR],
      );
      await projector.query(
        `INSERT INTO event_risk (org_id, event_id, risk_score, scored_at) VALUES ($1, $2, 10, now())`,
        [orgId, waiting],
      );
      await insertOlderScore(scored, 80);
      await insertOlderScore(waiting, 10);
      await insertOlderScore(failed, null);

      // Set-up run again on the older database: what `npm start` does after an upgrade.
      expect(await bootstrapDatabase(config)).toEqual(fromThisOne);
      // Every score counts at its level, the one whose event is not projected yet as well.
      expect(await levels()).toEqual([
        { risk_level: 'critical', count: 1 },
        { risk_level: 'low', count: 1 },
      ]);
      const columns = await projector.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'events' AND column_name LIKE '%score%'`,
      );
      expect(columns.rows).toEqual([]);
      expect((await projector.query(`SELECT to_regclass('event_risk') AS t`)).rows).toEqual([{ t: null }]);
      await expect(
        projector.query('UPDATE events SET decision = $1 WHERE org_id = $2', ['block', orgId]),
      ).rejects.toThrow('events are append-only');

      // The scoring worker's inserts count from now on, and erasing scores uncounts them.
      const later = randomUUID();
      await insertScore(later, 40);
      expect(await levels()).toContainEqual({ risk_level: 'medium', count: 1 });
      await projector.query('DELETE FROM event_scores WHERE org_id = $1 AND event_id = $2', [orgId, later]);
      expect(await levels()).not.toContainEqual({ risk_level: 'medium', count: 1 });

      for (const _ of fromThisOne) await owner.undoLastMigration();
      await grantPrivileges(owner);
      const events = await projector.query(
        'SELECT id, risk_score FROM events WHERE org_id = $1 ORDER BY risk_score NULLS LAST',
        [orgId],
      );
      expect(events.rows).toEqual([
        { id: scored, risk_score: 80 },
        { id: unscored, risk_score: null },
      ]);
      const kept = await projector.query('SELECT event_id FROM event_risk WHERE org_id = $1', [orgId]);
      expect(kept.rows).toEqual([{ event_id: waiting }]);
      // The older counters again: levels of the scores the events hold.
      expect(await levels()).toEqual([{ risk_level: 'critical', count: 1 }]);
    } finally {
      await projector.end();
      await owner.destroy();
    }
  });
});
