export interface DeployTokenView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const DEPLOY_TOKEN_COLUMNS = 'id, name, prefix, created_at, last_used_at, revoked_at, token_hash';

export interface DeployTokenRow extends Record<'id' | 'name' | 'prefix' | 'token_hash', string> {
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

// Never the token, never its hash.
export const toDeployTokenView = (row: DeployTokenRow): DeployTokenView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.created_at.toISOString(),
  last_used_at: iso(row.last_used_at),
  revoked_at: iso(row.revoked_at),
});
