import { MigrationInterface, QueryRunner } from 'typeorm';

const KEY = 'org_id, hour, action_type, decision, risk_level, tool_name, slot';

// Every batch of every organization touches the same few counters of the current hour. Held until
// commit, their row locks would make concurrent events batches, and score batches, wait for each
// other; so each connection counts into a slot of its own, and the stats add the slots up.
const SLOTS = 8;

/** Adds `delta` per key for the rows of `source` (a transition table or a union of them). */
function addCounts(source: string): string {
  return `
    INSERT INTO event_hourly_counts AS c (${KEY}, count)
    SELECT org_id, date_trunc('hour', "timestamp", 'UTC'), action_type, decision, event_risk_level(risk_score),
           tool_name, (pg_backend_pid() % ${SLOTS})::smallint, sum(delta)
      FROM (${source}) d
     GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(delta) <> 0
     -- Row locks in one order: two transactions that do share a slot queue instead of deadlocking.
     ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (${KEY}) DO UPDATE SET count = c.count + excluded.count`;
}

const COUNTED = 'org_id, "timestamp", action_type, decision, risk_score, tool_name';

// GET /v1/events/stats reading every event of the last 24 hours on each request costs in proportion
// to the organization's events (see docs/adr/0002-hourly-counters.md). Events also count into hourly buckets in the
// transaction that writes them, so the stats read at most 24 hours of counters. Statement triggers
// with transition tables keep that one aggregated upsert per batch, for the projector's inserts,
// the score projection's updates (an event moves from `unscored` to its level) and any delete.
export class EventHourlyCounts1732492800000 implements MigrationInterface {
  name = 'EventHourlyCounts1732492800000';

  async up(q: QueryRunner): Promise<void> {
    // Row-level security is forced on events, even for its owner: lifted for the back-fill inside
    // this transaction. The ALTER also locks events until commit, so no batch slips in between the
    // back-fill and the triggers.
    await q.query('ALTER TABLE events NO FORCE ROW LEVEL SECURITY');
    await q.query(`
      CREATE FUNCTION event_risk_level(score smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN score IS NULL THEN 'unscored' WHEN score = 0 THEN 'none' WHEN score < 25 THEN 'low'
                    WHEN score < 50 THEN 'medium' WHEN score < 75 THEN 'high' ELSE 'critical' END
      $$;

      CREATE TABLE event_hourly_counts (
        org_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        action_type text NOT NULL,
        decision text NOT NULL,
        risk_level text NOT NULL,
        tool_name text,
        slot smallint NOT NULL,
        count bigint NOT NULL,
        UNIQUE NULLS NOT DISTINCT (${KEY})
      );

      CREATE FUNCTION events_count_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addCounts(`SELECT ${COUNTED}, 1 AS delta FROM new_rows`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${addCounts(`SELECT ${COUNTED}, -1 AS delta FROM old_rows`)};
        ELSE
          -- Unchanged keys cancel out: only a row whose level (or other counted column) moved counts.
          ${addCounts(`SELECT ${COUNTED}, -1 AS delta FROM old_rows UNION ALL SELECT ${COUNTED}, 1 FROM new_rows`)};
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_count_inserted AFTER INSERT ON events
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
      CREATE TRIGGER events_count_updated AFTER UPDATE ON events
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
      CREATE TRIGGER events_count_deleted AFTER DELETE ON events
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_count_hourly();
    `);
    await q.query(addCounts(`SELECT ${COUNTED}, 1 AS delta FROM events`));
    await q.query(`
      ALTER TABLE events FORCE ROW LEVEL SECURITY;
      ALTER TABLE event_hourly_counts ENABLE ROW LEVEL SECURITY;
      ALTER TABLE event_hourly_counts FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON event_hourly_counts USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_count_deleted ON events;
      DROP TRIGGER events_count_updated ON events;
      DROP TRIGGER events_count_inserted ON events;
      DROP FUNCTION events_count_hourly();
      DROP TABLE event_hourly_counts;
      DROP FUNCTION event_risk_level(smallint);
    `);
  }
}
