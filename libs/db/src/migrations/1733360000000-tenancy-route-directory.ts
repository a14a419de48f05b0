import { MigrationInterface, QueryRunner } from 'typeorm';

// The control plane's route directory and data keys (docs/api/control-plane.md, "Cells").
//
// A route is an organization's: keyed by org id, so a slug provisioned again gets a route of its own
// beside the old organization's `deprovisioned` tombstone. It carries the lifecycle state and the cell's
// server (host:port, never credentials); schema_version is null until the database is migrated and
// again once it is dropped. At most one route per slug is not deprovisioned.
//
// A provisioned tenant's data key (crypto-shredding of its records on the topics) is readable by the
// data plane only through tenant_data_key(), a SECURITY DEFINER function owned by the tables' owner:
// the app and projector roles may call it, but never read or list the table itself.
//
// The control plane offboards a tenant's identity from the shared database: the grants that let it
// (DELETE on the credential tables, SELECT of their key column alone) are bootstrap's grantPrivileges',
// applied after every migration run, like every other grant.
export class TenancyRouteDirectory1733360000000 implements MigrationInterface {
  name = 'TenancyRouteDirectory1733360000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tenancy_routes DROP CONSTRAINT tenancy_routes_pkey;
      ALTER TABLE tenancy_routes ADD PRIMARY KEY (org_id);
      ALTER TABLE tenancy_routes ALTER COLUMN schema_version DROP NOT NULL;
      ALTER TABLE tenancy_routes
        ADD COLUMN state text NOT NULL DEFAULT 'active'
          CHECK (state IN ('provisioning', 'active', 'deprovisioned')),
        -- Routes written before this migration: migrate --all-tenants fills both from CONTROL_CELLS.
        ADD COLUMN region text NOT NULL DEFAULT '',
        ADD COLUMN server text NOT NULL DEFAULT '',
        ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
        -- Only a migrated database is routable; a dropped one has no schema.
        ADD CONSTRAINT tenancy_routes_active_migrated CHECK (state <> 'active' OR schema_version IS NOT NULL),
        ADD CONSTRAINT tenancy_routes_deprovisioned_unmigrated CHECK (state <> 'deprovisioned' OR schema_version IS NULL);
      ALTER TABLE tenancy_routes ALTER COLUMN state DROP DEFAULT, ALTER COLUMN region DROP DEFAULT,
        ALTER COLUMN server DROP DEFAULT;
      CREATE UNIQUE INDEX tenancy_routes_live_slug ON tenancy_routes (slug) WHERE state <> 'deprovisioned';

      CREATE TABLE tenancy_data_keys (
        org_id uuid PRIMARY KEY,
        key bytea NOT NULL CHECK (octet_length(key) = 32),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE FUNCTION tenant_data_key(org uuid) RETURNS bytea
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public
        AS $$ SELECT key FROM tenancy_data_keys WHERE org_id = org $$;
      REVOKE ALL ON FUNCTION tenant_data_key(uuid) FROM PUBLIC;
      GRANT EXECUTE ON FUNCTION tenant_data_key(uuid) TO agentwatch_app, agentwatch_projector;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION tenant_data_key(uuid);
      DROP TABLE tenancy_data_keys;
      DROP INDEX tenancy_routes_live_slug;
      DELETE FROM tenancy_routes WHERE state <> 'active';
      ALTER TABLE tenancy_routes DROP CONSTRAINT tenancy_routes_active_migrated,
        DROP CONSTRAINT tenancy_routes_deprovisioned_unmigrated,
        DROP COLUMN state, DROP COLUMN region, DROP COLUMN server, DROP COLUMN updated_at;
      ALTER TABLE tenancy_routes ALTER COLUMN schema_version SET NOT NULL;
      ALTER TABLE tenancy_routes DROP CONSTRAINT tenancy_routes_pkey;
      ALTER TABLE tenancy_routes ADD PRIMARY KEY (slug);
    `);
  }
}
