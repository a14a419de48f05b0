import { z } from 'zod';

const instant = z.iso.datetime();

/** A scoring-API key as the list and the revocation show it: never the key, never its hash. */
export const apiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  created_at: instant,
  /** null: valid until revoked. */
  expires_at: instant.nullable(),
  revoked_at: instant.nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** POST /v1/api-keys: the raw key, shown this once, and the scoring API's customer it sees. */
export const createdApiKeyView = apiKeyView
  .omit({ revoked_at: true })
  .extend({ key: z.string(), customer_id: z.uuid() });
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

/** GET /v1/api-keys, oldest first. */
export const apiKeyList = z.object({ api_keys: z.array(apiKeyView) });
export type ApiKeyList = z.infer<typeof apiKeyList>;

/** DELETE /v1/api-keys/{id}: the key as revoked. */
export const revokedApiKey = z.object({ api_key: apiKeyView });
export type RevokedApiKey = z.infer<typeof revokedApiKey>;

export const API_KEY_COLUMNS = 'id, name, prefix, created_at, expires_at, revoked_at';

export interface ApiKeyRow extends Record<'id' | 'name' | 'prefix', string> {
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

// API_KEY_COLUMNS never reads the key's hash: nothing secret can reach an answer.
export const toApiKeyView = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.created_at.toISOString(),
  expires_at: iso(row.expires_at),
  revoked_at: iso(row.revoked_at),
});
