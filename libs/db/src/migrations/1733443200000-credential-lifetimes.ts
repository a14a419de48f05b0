import { MigrationInterface, QueryRunner } from 'typeorm';

// What the consoles show and need of credentials. A scoring-API key may carry an end of validity
// (POST /v1/api-keys with ttl_seconds): the product console's short-lived key after sign-in; the
// key verifier refuses it from then on exactly like an unknown key. A machine records the deploy
// token it enrolled with and when it was last seen (its registration, or a replica looking its
// service token up: at most every 30 s, as deploy_tokens.last_used_at); both are null for machines
// enrolled before this migration. deploy_token_id has no foreign key, so erasing a tenant's identity
// may delete its credential tables in any order.
//
// A product migration: every database serving tenants holds these tables, so it raises
// PRODUCT_SCHEMA_VERSION and tenant databases take it with `migrate --all-tenants`.
export class CredentialLifetimes1733443200000 implements MigrationInterface {
  name = 'CredentialLifetimes1733443200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
      ALTER TABLE machines ADD COLUMN deploy_token_id uuid, ADD COLUMN last_seen_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE machines DROP COLUMN last_seen_at, DROP COLUMN deploy_token_id;
      ALTER TABLE api_keys DROP COLUMN expires_at;
    `);
  }
}
