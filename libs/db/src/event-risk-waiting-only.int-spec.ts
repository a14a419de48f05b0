import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { bootstrapDatabase, grantPrivileges, ownerDataSource, scratchDatabase } from './bootstrap';
import { MIGRATIONS } from './migrations';
import { EventRiskWaitingOnly1733184000000 } from './migrations/1733184000000-event-risk-waiting-only';

// This migration and every later one: undone to reach the older schema.
const fromThisOne = MIGRATIONS.slice(MIGRATIONS.indexOf(EventRiskWaitingOnly1733184000000)).map((m) => m.name);

describe('the event_risk migration to waiting scores only', () => {
  const { config, drop: dropScratch } = scratchDatabase('risk');
  const orgId = randomUUID();
  const [copied, waiting, unscored] = [randomUUID(), randomUUID(), randomUUID()];

  afterAll(dropScratch);

  it('drops the scores their events hold already, keeps the waiting ones, and puts them back when undone', async () => {
    await dropScratch();
    await bootstrapDatabase(config);
    const owner = await ownerDataSource(config).initialize();
    const projector = new Client({ connectionString: config.projectorUrl });
    await projector.connect();
    const scoresKept = async () =>
      (
        await projector.query('SELECT event_id FROM event_risk WHERE org_id = $1 ORDER BY risk_score', [orgId])
      ).rows.map((r) => r.event_id);
    try {
      for (const _ of fromThisOne) await owner.undoLastMigration();
      await grantPrivileges(owner); // event_risk is back
      // What the older projection left: every score in event_risk, copied onto the events it had.
      await projector.query(
        `INSERT INTO events (org_id, id, action_type, decision, risk_score, scored_at, "timestamp", received_at)
         VALUES ($1, $2, 'FILE_READ', 'allow', 10, now(), now(), now()),
                ($1, $3, 'FILE_READ', 'allow', NULL, NULL, now(), now())`,
        [orgId, copied, unscored],
      );
      await projector.query(
        `INSERT INTO event_risk (org_id, event_id, risk_score, scored_at)
         VALUES ($1, $2, 10, now()), ($1, $3, 20, now())`,
        [orgId, copied, waiting],
      );

      // This migration alone: a later one (ScoresReadByJoin) drops event_risk altogether.
      const upToThisOne = new DataSource({
        type: 'postgres',
        url: config.ownerUrl,
        migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(EventRiskWaitingOnly1733184000000) + 1),
        migrationsTransactionMode: 'each',
      });
      await upToThisOne.initialize();
      expect((await upToThisOne.runMigrations()).map((m) => m.name)).toEqual([fromThisOne[0]]);
      await upToThisOne.destroy();
      expect(await scoresKept()).toEqual([waiting]);
      const forced = await projector.query(
        `SELECT relname, relforcerowsecurity FROM pg_class WHERE relname IN ('events', 'event_risk') ORDER BY 1`,
      );
      expect(forced.rows).toEqual([
        { relname: 'event_risk', relforcerowsecurity: true },
        { relname: 'events', relforcerowsecurity: true },
      ]);

      await owner.undoLastMigration();
      expect(await scoresKept()).toEqual([copied, waiting]);
    } finally {
      await projector.end();
      await owner.destroy();
    }
  });
});
