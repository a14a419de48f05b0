import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { hashToken } from './domain/deploy-token';

/** Scoring API keys: `aw_sk_` + 32 random bytes (base64url). Only the SHA-256 and a short prefix are stored. */
export const API_KEY_PREFIX = 'aw_sk_';
export const API_KEY_HEADER = 'x-api-key';

/** The customer an API key is bound to: customer_id of the scoring API = organization id. */
export interface ApiKeyPrincipal {
  orgId: string;
  keyId: string;
}

const NOT_FOUND = 'not-found' as const;
const FOUND_TTL_MS = 10_000;
const NOT_FOUND_TTL_MS = 2_000;

/**
 * Resolves a raw key to its organization; answers are cached briefly, so a revocation takes effect
 * within 10 s. An expired key is refused like an unknown one, and a found key is never cached past
 * its expiry, so it stops working at its `expires_at` on every replica.
 */
@Injectable()
export class ApiKeyVerifier {
  private readonly cache = new LRUCache<string, ApiKeyPrincipal | typeof NOT_FOUND>({ max: 10_000, ttl: FOUND_TTL_MS });

  constructor(private readonly db: OrgScope) {}

  async verify(raw: string): Promise<ApiKeyPrincipal | null> {
    if (!raw.startsWith(API_KEY_PREFIX) || raw.length > 200) return null;
    const hash = hashToken(raw);
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached === NOT_FOUND ? null : cached;
    // The database's clock judges expiry, as it set expires_at; the answer says how long it has left.
    const rows: { id: string; org_id: string; ms_left: number | null }[] = await this.db.lookupByTokenHash(hash, (q) =>
      q.query(
        `SELECT id, org_id, (extract(epoch FROM expires_at - now()) * 1000)::float8 AS ms_left
           FROM api_keys
          WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [hash],
      ),
    );
    const row = rows[0];
    if (!row) {
      this.cache.set(hash, NOT_FOUND, { ttl: NOT_FOUND_TTL_MS });
      return null;
    }
    const principal: ApiKeyPrincipal = { orgId: row.org_id, keyId: row.id };
    const ttl = Math.floor(Math.min(FOUND_TTL_MS, row.ms_left ?? FOUND_TTL_MS));
    if (ttl >= 1) this.cache.set(hash, principal, { ttl });
    return principal;
  }
}
