import { API_KEY_PREFIX, mintToken } from '@agentwatch/auth';
import { Queryable } from '@agentwatch/db';

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
