import { IngestTokenChangedV1 } from '@agentwatch/contracts';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Controller, Logger } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

/**
 * How the cloud API comes to accept a tenant's ingest token: the projector writes the tenant's
 * organization and a deploy_tokens row (hash and prefix only) from `tenancy.tokens.v1`, and marks it
 * revoked on deprovision. A token whose tenant database has no schema version is refused: traffic
 * is never accepted for a tenant that is not known to be migrated. Nor is one of a deprovisioned
 * tenant: a projector lagging behind the control plane's erasure of the tenant's identity would
 * otherwise bring its organization and token back (the route is retired before the erasure commits).
 */
@Controller()
export class IngestTokensProjection {
  private readonly logger = new Logger('projection:tenancy-tokens');

  @EventPattern('tenancy-tokens')
  async apply({ tx, records }: ProjectionBatch<IngestTokenChangedV1>): Promise<void> {
    for (const { payload } of records) {
      if (payload.action === 'revoked') {
        await tx.query('UPDATE deploy_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1', [
          payload.token_id,
          payload.at,
        ]);
        continue;
      }
      if (payload.schema_version === null) {
        this.logger.warn(`refusing token ${payload.prefix}… of ${payload.slug}: its database has no schema_version`);
        continue;
      }
      const [retired] = await tx.query(`SELECT 1 FROM tenancy_routes WHERE org_id = $1 AND state = 'deprovisioned'`, [
        payload.org_id,
      ]);
      if (retired) continue;
      await tx.query('INSERT INTO organizations (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
        payload.org_id,
        payload.organization_name,
      ]);
      await tx.query(
        `INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [payload.token_id, payload.org_id, `tenancy:${payload.slug}`, payload.token_hash, payload.prefix, payload.at],
      );
    }
  }
}
