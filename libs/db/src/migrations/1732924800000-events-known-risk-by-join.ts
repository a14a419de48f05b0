import { MigrationInterface, QueryRunner } from 'typeorm';

// An event whose score was projected first takes it from event_risk when it is inserted. That was a
// plpgsql row trigger, one SELECT per event, several times dearer in Postgres CPU than the same lookup
// as a LEFT JOIN in the projection's INSERT (see docs/adr/0006-postgres-cost-per-scored-event.md).
// EventsProjection joins; the trigger goes.
export class EventsKnownRiskByJoin1732924800000 implements MigrationInterface {
  name = 'EventsKnownRiskByJoin1732924800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_take_known_risk ON events;
      DROP FUNCTION events_take_known_risk();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION events_take_known_risk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.risk_score IS NULL THEN
          SELECT r.risk_score, r.scored_at INTO NEW.risk_score, NEW.scored_at
            FROM event_risk r WHERE r.org_id = NEW.org_id AND r.event_id = NEW.id;
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER events_take_known_risk BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION events_take_known_risk();
    `);
  }
}
