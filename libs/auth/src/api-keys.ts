import { OrgScope, Queryable } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { hashToken, mintToken } from './domain/deploy-token';

/** Scoring API keys: `aw_sk_` + 32 random bytes (base64url). Only the SHA-256 and a short prefix are stored. */
export const API_KEY_PREFIX = 'aw_sk_';
export const API_KEY_HEADER = 'x-api-key';

export interface CreatedApiKey {
  id: string;
  name: string;
  /** The raw key: returned to the caller this once, never stored. */
  key: string;
  prefix: string;
  created_at: string;
}

/**
 * Creates an API key bound to one customer (organization) and returns the raw key once.
 * Must run inside a transaction whose `app.org_id` is `orgId` (OrgScope.run), or as the owner role.
 */
export async function insertApiKey(q: Queryable, orgId: string, id: string, name: string): Promise<CreatedApiKey> {
  const minted = mintToken(API_KEY_PREFIX);
  const [row] = await q.query(
    'INSERT INTO api_keys (id, org_id, name, key_hash, prefix) VALUES ($1, $2, $3, $4, $5) RETURNING created_at',
    [id, orgId, name, minted.hash, minted.prefix],
  );
  return { id, name, key: minted.raw, prefix: minted.prefix, created_at: row.created_at.toISOString() };
}

/** Revokes a key of the organization of the transaction; true when a live key was revoked. */
export async function revokeApiKey(q: Queryable, id: string): Promise<boolean> {
  const rows: unknown[] = await q.query(
    'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [id],
  );
  return rows.length === 1;
}

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
