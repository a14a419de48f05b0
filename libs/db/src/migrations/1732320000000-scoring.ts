import { MigrationInterface, QueryRunner } from 'typeorm';

/** Advisory lock key shared by the events projection (shared) and the score projection (exclusive). */
export const EVENT_RISK_LOCK = 7_320_001;

// Scoring context: API keys of the scoring API, per-customer policies with their history, the
// score projection, the session graph and the LLM answer cache; plus `event_risk`, the projector's
// copy of scores for events it has not projected yet.
export class Scoring1732320000000 implements MigrationInterface {
  name = 'Scoring1732320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations (id),
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_org_created ON api_keys (org_id, created_at, id);

      CREATE TABLE scoring_policies (
        org_id uuid PRIMARY KEY,
        version integer NOT NULL,
        policies jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE scoring_policy_versions (
        org_id uuid NOT NULL,
        version integer NOT NULL,
        policies jsonb NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, version)
      );

      CREATE TABLE event_scores (
        org_id uuid NOT NULL,
        event_id uuid NOT NULL,
        session_id uuid,
        status text NOT NULL CHECK (status IN ('scored', 'failed')),
        score smallint CHECK (score BETWEEN 0 AND 100),
        risk_level text,
        reasoning text NOT NULL,
        violations jsonb NOT NULL,
        scoring_source text NOT NULL,
        compliance_refs jsonb NOT NULL,
        mitigations jsonb NOT NULL,
        score_components jsonb NOT NULL,
        behavioral_flags jsonb NOT NULL,
        graph_score smallint,
        llm_score smallint,
        llm_fallback boolean NOT NULL,
        cache_hit boolean NOT NULL,
        score_decomposition jsonb NOT NULL,
        confidence real NOT NULL,
        rule_score integer,
        scorer_version text NOT NULL,
        policy_version integer NOT NULL,
        fingerprint text NOT NULL,
        failure_reason text,
        action text NOT NULL,
        event_timestamp timestamptz NOT NULL,
        scored_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, event_id)
      );
      CREATE INDEX event_scores_org_scored ON event_scores (org_id, scored_at DESC, event_id DESC);

      -- The session graph: only events carrying a fact a graph rule looks for, so it stays small.
      CREATE TABLE scoring_graph_nodes (
        org_id uuid NOT NULL,
        event_id uuid NOT NULL,
        session_id uuid NOT NULL,
        at timestamptz NOT NULL,
        facts text[] NOT NULL,
        PRIMARY KEY (org_id, event_id)
      );
      CREATE INDEX scoring_graph_nodes_session ON scoring_graph_nodes (org_id, session_id, at);

      CREATE TABLE scoring_llm_cache (
        org_id uuid NOT NULL,
        fingerprint text NOT NULL,
        llm_score smallint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, fingerprint)
      );

      CREATE TABLE event_risk (
        org_id uuid NOT NULL,
        event_id uuid NOT NULL,
        risk_score smallint NOT NULL,
        scored_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, event_id)
      );

      -- Scores and events travel on different topics and are projected by different consumers, so a
      -- score can be projected before its event: the event row then takes its risk from event_risk.
      -- The advisory lock closes the remaining gap (a score committed while an events batch that
      -- already looked is still open): events batches hold it shared until they commit, the score
      -- projection takes it exclusively before it updates events.
      CREATE FUNCTION events_lock_risk() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${EVENT_RISK_LOCK});
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_lock_risk BEFORE INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_lock_risk();
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
    for (const table of [
      'api_keys',
      'scoring_policies',
      'scoring_policy_versions',
      'event_scores',
      'scoring_graph_nodes',
      'scoring_llm_cache',
      'event_risk',
    ]) {
      await q.query(`
        ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
        ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
        CREATE POLICY org_isolation ON ${table} USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
      `);
    }
    await q.query(`
      CREATE POLICY key_lookup ON api_keys FOR SELECT
        USING (key_hash = NULLIF(current_setting('app.token_hash', true), ''));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_take_known_risk ON events;
      DROP TRIGGER events_lock_risk ON events;
      DROP FUNCTION events_take_known_risk();
      DROP FUNCTION events_lock_risk();
      DROP TABLE event_risk, scoring_llm_cache, scoring_graph_nodes, event_scores, scoring_policy_versions,
                 scoring_policies, api_keys;
    `);
  }
}
