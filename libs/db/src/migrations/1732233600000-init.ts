import { MigrationInterface, QueryRunner } from 'typeorm';

// Read models (projections of the ingest topics), the organization/credential tables the API owns,
// and the projection checkpoints. Every tenant table leads its keys and indexes with org_id and is
// guarded by FORCE ROW LEVEL SECURITY keyed on the transaction-local setting `app.org_id`.
export class Init1732233600000 implements MigrationInterface {
  name = 'Init1732233600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION app_org_id() RETURNS uuid LANGUAGE sql STABLE
        AS $$ SELECT NULLIF(current_setting('app.org_id', true), '')::uuid $$;

      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE deploy_tokens (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations (id),
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX deploy_tokens_org_created ON deploy_tokens (org_id, created_at, id);

      CREATE TABLE sessions (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        session_name text,
        model text,
        signing_id text,
        platform text,
        parent_id uuid,
        state text NOT NULL,
        state_at timestamptz NOT NULL,
        started_at timestamptz,
        ended_at timestamptz,
        last_seen_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, id)
      );
      CREATE INDEX sessions_org_started ON sessions (org_id, started_at DESC, id DESC);
      CREATE INDEX sessions_org_parent ON sessions (org_id, parent_id);

      CREATE TABLE events (
        org_id uuid NOT NULL,
        id uuid NOT NULL,
        client_event_id text,
        session_id uuid,
        agent_id text,
        machine_id text,
        action_type text NOT NULL,
        tool_name text,
        arguments jsonb NOT NULL DEFAULT '[]',
        decision text NOT NULL,
        risk_score smallint CHECK (risk_score BETWEEN 0 AND 100),
        scored_at timestamptz,
        "timestamp" timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, id)
      );
      CREATE INDEX events_org_session_ts ON events (org_id, session_id, "timestamp", id);
      CREATE INDEX events_org_ts ON events (org_id, "timestamp" DESC, id DESC);

      CREATE TABLE agents (
        org_id uuid NOT NULL,
        id text NOT NULL,
        platform text,
        signing_id text,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (org_id, id)
      );

      CREATE TABLE projection_checkpoints (
        consumer_group text NOT NULL,
        topic text NOT NULL,
        partition integer NOT NULL,
        next_offset bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer_group, topic, partition)
      );
    `);

    for (const table of ['deploy_tokens', 'sessions', 'events', 'agents']) {
      await q.query(`
        ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
        ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
        CREATE POLICY org_isolation ON ${table} USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
      `);
    }
    await q.query(`
      ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
      ALTER TABLE organizations FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON organizations USING (id = app_org_id()) WITH CHECK (id = app_org_id());
      -- Authentication happens before the organization is known: a request may read exactly the
      -- token row whose hash it presents, and nothing else.
      CREATE POLICY token_lookup ON deploy_tokens FOR SELECT
        USING (token_hash = NULLIF(current_setting('app.token_hash', true), ''));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE projection_checkpoints, agents, events, sessions, deploy_tokens, organizations;
      DROP FUNCTION app_org_id();
    `);
  }
}
