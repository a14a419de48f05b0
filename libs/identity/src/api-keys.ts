import { API_KEY_PREFIX, mintToken } from '@agentwatch/auth';
import { Queryable } from '@agentwatch/db';

export interface CreatedApiKey {
  id: string;
  name: string;
  /** The raw key: returned to the caller this once, never stored. */
  key: string;
  prefix: string;
  created_at: string;
  /** null: valid until revoked. */
  expires_at: string | null;
}

/**
 * Creates an API key bound to one customer (organization) and returns the raw key once; with
 * `ttlSeconds` it expires that long after its creation (the database's clock for both).
 * Must run inside a transaction whose `app.org_id` is `orgId` (OrgScope.run), or as the owner role.
 */
export async function insertApiKey(
  q: Queryable,
  orgId: string,
  id: string,
  name: string,
  ttlSeconds: number | null = null,
): Promise<CreatedApiKey> {
  const minted = mintToken(API_KEY_PREFIX);
  const [row] = await q.query(
    `INSERT INTO api_keys (id, org_id, name, key_hash, prefix, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::integer))
     RETURNING created_at, expires_at`,
    [id, orgId, name, minted.hash, minted.prefix, ttlSeconds],
  );
  return {
    id,
    name,
    key: minted.raw,
    prefix: minted.prefix,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}
