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

/** Resolves a raw key to its organization; answers are cached briefly, so a revocation takes effect within 10 s. */
@Injectable()
export class ApiKeyVerifier {
  private readonly cache = new LRUCache<string, ApiKeyPrincipal | typeof NOT_FOUND>({ max: 10_000, ttl: 10_000 });

  constructor(private readonly db: OrgScope) {}

  async verify(raw: string): Promise<ApiKeyPrincipal | null> {
    if (!raw.startsWith(API_KEY_PREFIX) || raw.length > 200) return null;
    const hash = hashToken(raw);
    const cached = this.cache.get(hash);
    if (cached !== undefined) return cached === NOT_FOUND ? null : cached;
    const rows: { id: string; org_id: string }[] = await this.db.lookupByTokenHash(hash, (q) =>
      q.query('SELECT id, org_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hash]),
    );
    const principal: ApiKeyPrincipal | null = rows[0] ? { orgId: rows[0].org_id, keyId: rows[0].id } : null;
    this.cache.set(hash, principal ?? NOT_FOUND, { ttl: principal ? 10_000 : 2_000 });
    return principal;
  }
}
