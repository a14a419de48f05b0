import { MigrationInterface, QueryRunner } from 'typeorm';

// A scored event was written three times: inserted by the projector, updated with its score (a new
// row version in every index), and its score row written by the scoring worker; a score that came
// first waited in event_risk, behind an interlock both consumers took. Now an event is written once
// and its score once: the cloud API reads `events LEFT JOIN event_scores` (see
// docs/adr/0015-scores-read-by-join.md). The events table is append-only, so it goes back to full
// pages; the risk levels of the stats are counted from event_scores, under the hour of the event.
//
// A product migration: every database serving tenants holds these tables, so it raises
// PRODUCT_SCHEMA_VERSION and tenant databases take it with `migrate --all-tenants`.

// The counters' layout of EventHourlyRisk1732752000000: one slot per connection, so concurrent
// batches never wait on each other's counter rows.
const SLOT = '(pg_backend_pid() % 8)::smallint';
const COUNT_KEY = 'org_id, hour, action_type, decision, tool_name, slot';
const RISK_KEY = 'org_id, hour, risk_level, slot';

const addCounts = (source: string) => `
  INSERT INTO event_hourly_counts AS c (${COUNT_KEY}, count)
  SELECT org_id, date_trunc('hour', "timestamp", 'UTC'), action_type, decision, tool_name, ${SLOT}, sum(delta)
    FROM (${source}) d
   GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (${COUNT_KEY}) DO UPDATE SET count = c.count + excluded.count`;

/** `source` yields (org_id, "timestamp", risk_score, delta) for scored rows only. */
const addRisk = (source: string) => `
  INSERT INTO event_hourly_risk AS c (${RISK_KEY}, count)
  SELECT org_id, date_trunc('hour', "timestamp", 'UTC'), event_risk_level(risk_score), ${SLOT}, sum(delta)
    FROM (${source}) d
   GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (${RISK_KEY}) DO UPDATE SET count = c.count + excluded.count`;

const COUNTED = 'org_id, "timestamp", action_type, decision, tool_name';
const SCORED_EVENTS = 'org_id, "timestamp", risk_score';
const SCORES = 'org_id, event_timestamp AS "timestamp", score AS risk_score';

const FORCED = ['events', 'event_scores', 'event_hourly_risk'];
const liftRowSecurity = (q: QueryRunner) =>
  q.query(FORCED.map((t) => `ALTER TABLE ${t} NO FORCE ROW LEVEL SECURITY;`).join('\n'));
const forceRowSecurity = (q: QueryRunner) =>
  q.query(FORCED.map((t) => `ALTER TABLE ${t} FORCE ROW LEVEL SECURITY;`).join('\n'));

export class ScoresReadByJoin1733529600000 implements MigrationInterface {
  name = 'ScoresReadByJoin1733529600000';

  async up(q: QueryRunner): Promise<void> {
    // Row-level security is forced even for the owner: lifted for the back-fill inside this
    // transaction, which also keeps both consumers out until the new triggers are in place.
    await liftRowSecurity(q);
    await q.query(`
      DROP TRIGGER events_counted_columns_immutable ON events;
      DROP FUNCTION events_refuse_recount();
      DROP TRIGGER events_count_updated ON events;
      CREATE OR REPLACE FUNCTION events_count_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addCounts(`SELECT ${COUNTED}, 1 AS delta FROM new_rows`)};
        ELSE
          ${addCounts(`SELECT ${COUNTED}, -1 AS delta FROM old_rows`)};
        END IF;
        RETURN NULL;
      END $$;
      -- Nothing updates an event any more; refusing it keeps the hourly counters true.
      CREATE FUNCTION events_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events are append-only: an event is never updated (its score lives in event_scores)';
      END $$;
      CREATE TRIGGER events_append_only BEFORE UPDATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_update();

      CREATE FUNCTION event_scores_count_risk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addRisk(`SELECT ${SCORES}, 1 AS delta FROM new_rows WHERE score IS NOT NULL`)};
        ELSE
          ${addRisk(`SELECT ${SCORES}, -1 AS delta FROM old_rows WHERE score IS NOT NULL`)};
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER event_scores_count_inserted AFTER INSERT ON event_scores
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_scores_count_risk();
      CREATE TRIGGER event_scores_count_deleted AFTER DELETE ON event_scores
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_scores_count_risk();
      CREATE TRIGGER event_scores_append_only BEFORE UPDATE ON event_scores
        FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_update();

      TRUNCATE event_hourly_risk;
    `);
    await q.query(addRisk(`SELECT ${SCORES}, 1 AS delta FROM event_scores WHERE score IS NOT NULL`));
    await q.query(`
      DROP TABLE event_risk;
      ALTER TABLE events DROP COLUMN risk_score, DROP COLUMN scored_at;
      ALTER TABLE events SET (fillfactor = 100);
    `);
    await forceRowSecurity(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await liftRowSecurity(q);
    await q.query(`
      DROP TRIGGER event_scores_append_only ON event_scores;
      DROP TRIGGER event_scores_count_deleted ON event_scores;
      DROP TRIGGER event_scores_count_inserted ON event_scores;
      DROP FUNCTION event_scores_count_risk();
      DROP TRIGGER events_append_only ON events;
      DROP FUNCTION events_refuse_update();

      ALTER TABLE events SET (fillfactor = 50);
      ALTER TABLE events ADD COLUMN risk_score smallint CHECK (risk_score BETWEEN 0 AND 100),
                         ADD COLUMN scored_at timestamptz;
      UPDATE events e SET risk_score = s.score, scored_at = s.scored_at
        FROM event_scores s WHERE s.org_id = e.org_id AND s.event_id = e.id AND s.score IS NOT NULL;

      CREATE TABLE event_risk (
        org_id uuid NOT NULL,
        event_id uuid NOT NULL,
        risk_score smallint NOT NULL,
        scored_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, event_id)
      );
      INSERT INTO event_risk (org_id, event_id, risk_score, scored_at)
      SELECT s.org_id, s.event_id, s.score, s.scored_at FROM event_scores s
       WHERE s.score IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.org_id = s.org_id AND e.id = s.event_id);
      ALTER TABLE event_risk ENABLE ROW LEVEL SECURITY;
      ALTER TABLE event_risk FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON event_risk USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());

      CREATE OR REPLACE FUNCTION events_count_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addCounts(`SELECT ${COUNTED}, 1 AS delta FROM new_rows`)};
          ${addRisk(`SELECT ${SCORED_EVENTS}, 1 AS delta FROM new_rows WHERE risk_score IS NOT NULL`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${addCounts(`SELECT ${COUNTED}, -1 AS delta FROM old_rows`)};
          ${addRisk(`SELECT ${SCORED_EVENTS}, -1 AS delta FROM old_rows WHERE risk_score IS NOT NULL`)};
        ELSE
          ${addRisk(
            `SELECT ${SCORED_EVENTS}, -1 AS delta FROM old_rows WHERE risk_score IS NOT NULL
             UNION ALL SELECT ${SCORED_EVENTS}, 1 FROM new_rows WHERE risk_score IS NOT NULL`,
          )};
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_count_updated AFTER UPDATE ON events
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
      CREATE FUNCTION events_refuse_recount() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the counted columns of an event (organization, timestamp, action type, decision, tool) never change: only its score is updated';
      END $$;
      CREATE TRIGGER events_counted_columns_immutable BEFORE UPDATE OF org_id, "timestamp", action_type, decision, tool_name
        ON events FOR EACH ROW EXECUTE FUNCTION events_refuse_recount();

      TRUNCATE event_hourly_risk;
    `);
    await q.query(addRisk(`SELECT ${SCORED_EVENTS}, 1 AS delta FROM events WHERE risk_score IS NOT NULL`));
    await forceRowSecurity(q);
  }
}
