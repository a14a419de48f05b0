import { MigrationInterface, QueryRunner } from 'typeorm';

// Identity for the cloud API: who belongs to which organization (for JWTs without an org claim),
// enrolled machines with their service tokens, and the shared ingest rate-limit counters.
export class Identity1732240000000 implements MigrationInterface {
  name = 'Identity1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE memberships (
        subject text NOT NULL,
        org_id uuid NOT NULL REFERENCES organizations (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (subject, org_id)
      );
      ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
      ALTER TABLE memberships FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON memberships USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
      -- A verified JWT subject may read its own memberships before any organization is chosen.
      CREATE POLICY own_memberships ON memberships FOR SELECT
        USING (subject = NULLIF(current_setting('app.subject', true), ''));

      CREATE TABLE machines (
        org_id uuid NOT NULL REFERENCES organizations (id),
        id text NOT NULL,
        hostname text,
        os text,
        arch text,
        daemon_version text,
        token_hash text NOT NULL UNIQUE,
        token_prefix text NOT NULL,
        registered_at timestamptz NOT NULL DEFAULT now(),
        rotated_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        first_ingest_at timestamptz,
        PRIMARY KEY (org_id, id)
      );
      ALTER TABLE machines ENABLE ROW LEVEL SECURITY;
      ALTER TABLE machines FORCE ROW LEVEL SECURITY;
      CREATE POLICY org_isolation ON machines USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
      CREATE POLICY token_lookup ON machines FOR SELECT
        USING (token_hash = NULLIF(current_setting('app.token_hash', true), ''));

      -- The first ingest of a credential is a daemon check-in (tenant flows wait for it).
      ALTER TABLE deploy_tokens ADD COLUMN first_ingest_at timestamptz;

      -- Read-model columns: the newest lifecycle record's time (its metadata wins over older records'),
      -- and the session of an agent's latest event (its platform and signing id are read through it).
      ALTER TABLE sessions ADD COLUMN record_at timestamptz;
      ALTER TABLE agents ADD COLUMN last_session_id uuid;
      CREATE INDEX agents_org_last_seen ON agents (org_id, last_seen DESC, id);

      -- rate-limiter-flexible's Postgres store; keys name the organization and the route.
      CREATE TABLE ingest_rate_limits (
        key varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE ingest_rate_limits, machines, memberships; ALTER TABLE deploy_tokens DROP COLUMN first_ingest_at; ALTER TABLE sessions DROP COLUMN record_at; ALTER TABLE agents DROP COLUMN last_session_id',
    );
  }
}
