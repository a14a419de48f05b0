import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { hashToken, ServiceTokenKind, serviceTokenKind } from './domain/deploy-token';
import { Principal } from './principal';

const NOT_FOUND = 'not-found' as const;
const POSITIVE_TTL_MS = 30_000;
const NEGATIVE_TTL_MS = 2_000;

const LOOKUPS: Record<ServiceTokenKind, string> = {
  'deploy-token':
    'SELECT id AS credential_id, org_id, NULL AS machine_id FROM deploy_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
  'service-token':
    'SELECT id AS credential_id, org_id, id AS machine_id FROM machines WHERE token_hash = $1 AND revoked_at IS NULL',
};

const LAST_USE: Record<ServiceTokenKind, string> = {
  'deploy-token': 'UPDATE deploy_tokens SET last_used_at = now() WHERE org_id = $1 AND id = $2',
  'service-token': 'UPDATE machines SET last_seen_at = now() WHERE org_id = $1 AND id = $2',
};

/**
 * Resolves deploy tokens and machine service tokens to their organization by SHA-256 lookup.
 * Answers are cached briefly so a daemon fleet's steady ingest costs no query per request; a token
 * revoked or rotated on another replica stops working there within POSITIVE_TTL_MS.
 */
@Injectable()
export class ServiceTokenVerifier {
  private readonly cache = new LRUCache<string, Principal | typeof NOT_FOUND>({ max: 100_000, ttl: POSITIVE_TTL_MS });

  constructor(private readonly db: OrgScope) {}

  async verify(raw: string): Promise<Principal | null> {
    const kind = serviceTokenKind(raw);
    if (!kind) return null;
    const hash = hashToken(raw);
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached === NOT_FOUND ? null : cached;
    const principal = await this.db.lookupByTokenHash(hash, async (q) => {
      const [row] = await q.query(LOOKUPS[kind], [hash]);
      if (!row) return null;
      // Written on a lookup, not per request: a credential's last use is as fresh as this cache allows.
      await q.query(`SELECT set_config('app.org_id', $1, true)`, [row.org_id]);
      await q.query(LAST_USE[kind], [row.org_id, row.credential_id]);
      return {
        orgId: row.org_id,
        credential: kind,
        credentialId: row.credential_id,
        machineId: row.machine_id,
        subject: null,
      };
    });
    // Unknown tokens are remembered for less time, so a token minted a moment ago is not refused for long.
    this.cache.set(hash, principal ?? NOT_FOUND, { ttl: principal ? POSITIVE_TTL_MS : NEGATIVE_TTL_MS });
    return principal;
  }

  /** Drops a revoked or rotated token from this replica's cache at once. */
  forgetHash(hash: string): void {
    this.cache.delete(hash);
  }
}
