export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

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
