import { MigrationInterface, QueryRunner } from 'typeorm';

// EventRiskProjection keeps in event_risk only the scores still waiting for their event. A database
// whose event_risk holds every score, also those copied onto their events rows, gets the rest
// reclaimed here: rows whose event holds its score already. What stays is still waiting.
export class EventRiskWaitingOnly1733184000000 implements MigrationInterface {
  name = 'EventRiskWaitingOnly1733184000000';

  async up(q: QueryRunner): Promise<void> {
    // Row-level security is forced on both tables, even for their owner: lifted inside this
    // transaction only, which also keeps the projections out until it commits.
    await q.query('ALTER TABLE event_risk NO FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE events NO FORCE ROW LEVEL SECURITY');
    await q.query(`
      DELETE FROM event_risk r USING events e
       WHERE e.org_id = r.org_id AND e.id = r.event_id AND e.risk_score IS NOT NULL`);
    await q.query('ALTER TABLE events FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE event_risk FORCE ROW LEVEL SECURITY');
  }

  async down(q: QueryRunner): Promise<void> {
    // The older projection found every score in event_risk: put back those the events rows hold.
    await q.query('ALTER TABLE event_risk NO FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE events NO FORCE ROW LEVEL SECURITY');
    await q.query(`
      INSERT INTO event_risk (org_id, event_id, risk_score, scored_at)
      SELECT org_id, id, risk_score, scored_at FROM events WHERE risk_score IS NOT NULL AND scored_at IS NOT NULL
      ON CONFLICT (org_id, event_id) DO NOTHING`);
    await q.query('ALTER TABLE events FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE event_risk FORCE ROW LEVEL SECURITY');
  }
}
