import { MigrationInterface, QueryRunner } from 'typeorm';
import { EVENT_RISK_LOCK } from './1732320000000-scoring';

// The events/score interlock moves from one global advisory lock, taken by a statement trigger on
// events, to per-session stripes taken by the two projections themselves (lockEventRiskStripes): a
// statement trigger cannot see the rows it would have to stripe by.
export class EventRiskStripes1732579200000 implements MigrationInterface {
  name = 'EventRiskStripes1732579200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_lock_risk ON events;
      DROP FUNCTION events_lock_risk();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION events_lock_risk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${EVENT_RISK_LOCK});
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_lock_risk BEFORE INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_lock_risk();
    `);
  }
}
