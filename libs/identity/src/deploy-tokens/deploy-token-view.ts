import { z } from 'zod';

const instant = z.iso.datetime();

/** A deploy token as the list and the revocation show it: never the token, never its hash. */
export const deployTokenView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The token's first characters (`svc_deploy_` and six more), to tell tokens apart. */
  prefix: z.string(),
  created_at: instant,
  last_used_at: instant.nullable(),
  revoked_at: instant.nullable(),
});
export type DeployTokenView = z.infer<typeof deployTokenView>;

/** POST /v1/deploy-tokens: the raw token, shown this once. */
export const createdDeployTokenView = deployTokenView
  .pick({ id: true, name: true, prefix: true, created_at: true })
  .extend({ token: z.string() });
export type CreatedDeployTokenView = z.infer<typeof createdDeployTokenView>;

/** GET /v1/deploy-tokens, oldest first. */
export const deployTokenList = z.object({ deploy_tokens: z.array(deployTokenView) });
export type DeployTokenList = z.infer<typeof deployTokenList>;

/** DELETE /v1/deploy-tokens/{id}: the token as revoked. */
export const revokedDeployToken = z.object({ deploy_token: deployTokenView });
export type RevokedDeployToken = z.infer<typeof revokedDeployToken>;

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
