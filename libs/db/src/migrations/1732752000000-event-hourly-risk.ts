import { MigrationInterface, QueryRunner } from 'typeorm';
import { EventHourlyCounts1732492800000 } from './1732492800000-event-hourly-counts';

// Each connection counts into a slot of its own, so concurrent batches never wait on each other's
// counter rows (see EventHourlyCounts); the stats add the slots up.
const SLOTS = 8;
const SLOT = `(pg_backend_pid() % ${SLOTS})::smallint`;
const HOUR = `date_trunc('hour', "timestamp", 'UTC')`;

const COUNT_KEY = 'org_id, hour, action_type, decision, tool_name, slot';
const RISK_KEY = 'org_id, hour, risk_level, slot';

/** Adds `delta` per counter key for the rows of `source`; row locks taken in key order. */
function addCounts(source: string): string {
  return `
    INSERT INTO event_hourly_counts AS c (${COUNT_KEY}, count)
    SELECT org_id, ${HOUR}, action_type, decision, tool_name, ${SLOT}, sum(delta)
      FROM (${source}) d
     GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (${COUNT_KEY}) DO UPDATE SET count = c.count + excluded.count`;
}

/** The same for the scored events' levels (`source` holds only rows with a risk_score). */
function addRisk(source: string): string {
  return `
    INSERT INTO event_hourly_risk AS c (${RISK_KEY}, count)
    SELECT org_id, ${HOUR}, event_risk_level(risk_score), ${SLOT}, sum(delta)
      FROM (${source}) d
     GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (${RISK_KEY}) DO UPDATE SET count = c.count + excluded.count`;
}

const COUNTED = 'org_id, "timestamp", action_type, decision, tool_name';
const SCORED = `org_id, "timestamp", risk_score`;

// Copying a score onto an event moved it between two counter rows keyed by every stats dimension at
// once, and the UPDATE trigger aggregated both transition tables over all of them: most of the score
// copy's cost (see docs/adr/0002-hourly-counters.md).
// The stats only ever read each dimension on its own, so risk levels are counted apart, for scored
// events only (unscored = total − scored): a score copy now adds to a few (organization, hour, level)
// rows and leaves the other counters alone. The counted columns of an event are never updated (a
// trigger refuses it), so the UPDATE trigger counts levels only.
export class EventHourlyRisk1732752000000 implements MigrationInterface {
  name = 'EventHourlyRisk1732752000000';

  async up(q: QueryRunner): Promise<void> {
    // Row-level security is forced on events, even for its owner: lifted for the back-fill inside this
    // transaction, which also holds events locked until commit so no batch slips in before the triggers.
    await q.query('ALTER TABLE events NO FORCE ROW LEVEL SECURITY');
    await q.query(`
      DROP TRIGGER events_count_deleted ON events;
      DROP TRIGGER events_count_updated ON events;
      DROP TRIGGER events_count_inserted ON events;
      DROP FUNCTION events_count_hourly();
      DROP TABLE event_hourly_counts;

      CREATE TABLE event_hourly_counts (
        org_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        action_type text NOT NULL,
        decision text NOT NULL,
        tool_name text,
        slot smallint NOT NULL,
        count bigint NOT NULL,
        UNIQUE NULLS NOT DISTINCT (${COUNT_KEY})
      );
      CREATE TABLE event_hourly_risk (
        org_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        risk_level text NOT NULL,
        slot smallint NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (${RISK_KEY})
      );

      CREATE FUNCTION events_count_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addCounts(`SELECT ${COUNTED}, 1 AS delta FROM new_rows`)};
          ${addRisk(`SELECT ${SCORED}, 1 AS delta FROM new_rows WHERE risk_score IS NOT NULL`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${addCounts(`SELECT ${COUNTED}, -1 AS delta FROM old_rows`)};
          ${addRisk(`SELECT ${SCORED}, -1 AS delta FROM old_rows WHERE risk_score IS NOT NULL`)};
        ELSE
          ${addRisk(
            `SELECT ${SCORED}, -1 AS delta FROM old_rows WHERE risk_score IS NOT NULL
             UNION ALL SELECT ${SCORED}, 1 FROM new_rows WHERE risk_score IS NOT NULL`,
          )};
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_count_inserted AFTER INSERT ON events
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
      CREATE TRIGGER events_count_updated AFTER UPDATE ON events
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
      CREATE TRIGGER events_count_deleted AFTER DELETE ON events
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();

      -- A column-list trigger fires only for an UPDATE that sets one of these columns: the score copy
      -- (risk_score, scored_at) never pays for it.
      CREATE FUNCTION events_refuse_recount() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the counted columns of an event (organization, timestamp, action type, decision, tool) never change: only its score is updated';
      END $$;
      CREATE TRIGGER events_counted_columns_immutable BEFORE UPDATE OF org_id, "timestamp", action_type, decision, tool_name
        ON events FOR EACH ROW EXECUTE FUNCTION events_refuse_recount();
    `);
    await q.query(addCounts(`SELECT ${COUNTED}, 1 AS delta FROM events`));
    await q.query(addRisk(`SELECT ${SCORED}, 1 AS delta FROM events WHERE risk_score IS NOT NULL`));
    await q.query(`
      ALTER TABLE events FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_hourly_counts ENABLE ROW LEVEL SECURITY;
      ALTER TABLE event_hourly_counts FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON event_hourly_counts USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
      ALTER TABLE event_hourly_risk ENABLE ROW LEVEL SECURITY;
      ALTER TABLE event_hourly_risk FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON event_hourly_risk USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_counted_columns_immutable ON events;
      DROP FUNCTION events_refuse_recount();
      DROP TRIGGER events_count_deleted ON events;
      DROP TRIGGER events_count_updated ON events;
      DROP TRIGGER events_count_inserted ON events;
      DROP FUNCTION events_count_hourly();
      DROP TABLE event_hourly_risk, event_hourly_counts;
      DROP FUNCTION event_risk_level(smallint);
    `);
    // The combined counters, rebuilt and back-filled exactly as that migration first made them.
    await new EventHourlyCounts1732492800000().up(q);
  }
}
