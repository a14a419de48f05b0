import { MigrationInterface, QueryRunner } from 'typeorm';

// The control plane's tables (docs/api/control-plane.md): the append-only flow journal, the flow rows projected
// from it in the same transaction, durable timers, the transactional outbox, routes, tokens and
// check-ins. None holds a raw ingest token: only SHA-256 hashes and short prefixes.
export class Tenancy1732406400000 implements MigrationInterface {
  name = 'Tenancy1732406400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tenancy_journal (
        position bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        stream_id uuid NOT NULL,
        version integer NOT NULL,
        tenant_id uuid NOT NULL,
        slug text NOT NULL,
        flow_kind text NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        actor text NOT NULL,
        recorded_at timestamptz NOT NULL,
        UNIQUE (stream_id, version)
      );
      CREATE INDEX tenancy_journal_tenant ON tenancy_journal (tenant_id, position);

      CREATE TABLE tenancy_flows (
        stream_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('onboard', 'offboard')),
        slug text NOT NULL,
        org_id uuid NOT NULL,
        state text NOT NULL,
        version integer NOT NULL,
        live boolean NOT NULL,
        detail jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      -- One live provisioning flow per slug and one live offboard flow per tenant: a concurrent
      -- second request loses here (409 conflict).
      CREATE UNIQUE INDEX tenancy_flows_live_slug ON tenancy_flows (slug) WHERE kind = 'onboard' AND live;
      CREATE UNIQUE INDEX tenancy_flows_live_offboard ON tenancy_flows (tenant_id) WHERE kind = 'offboard' AND live;
      CREATE INDEX tenancy_flows_slug ON tenancy_flows (slug, created_at DESC);
      CREATE INDEX tenancy_flows_org ON tenancy_flows (org_id) WHERE kind = 'onboard';

      CREATE TABLE tenancy_timers (
        stream_id uuid PRIMARY KEY,
        due_at timestamptz NOT NULL
      );
      CREATE INDEX tenancy_timers_due ON tenancy_timers (due_at);

      CREATE TABLE tenancy_outbox (
        id bigserial PRIMARY KEY,
        topic text NOT NULL,
        key text NOT NULL,
        ce_id uuid NOT NULL,
        ce_type text NOT NULL,
        org_id uuid NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      );
      CREATE INDEX tenancy_outbox_pending ON tenancy_outbox (id) WHERE published_at IS NULL;

      CREATE TABLE tenancy_routes (
        slug text PRIMARY KEY,
        tenant_id uuid NOT NULL,
        org_id uuid NOT NULL,
        cell text NOT NULL,
        database_name text NOT NULL,
        -- A route to a database not known to be migrated cannot exist.
        schema_version text NOT NULL CHECK (schema_version <> ''),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE tenancy_tokens (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        slug text NOT NULL,
        org_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE INDEX tenancy_tokens_tenant ON tenancy_tokens (tenant_id);

      CREATE TABLE tenancy_checkins (
        org_id uuid PRIMARY KEY,
        machine_id text,
        checked_in_at timestamptz NOT NULL
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'DROP TABLE tenancy_checkins, tenancy_tokens, tenancy_routes, tenancy_outbox, tenancy_timers, tenancy_flows, tenancy_journal',
    );
  }
}
