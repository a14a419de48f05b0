import { mintDeployToken } from '@agentwatch/auth';
import { Queryable } from '@agentwatch/db';
import { z } from 'zod';

/** An organization as POST and GET /v1/tenant answer it. */
export const organizationView = z.object({ id: z.uuid(), name: z.string(), created_at: z.iso.datetime() });
export type OrganizationView = z.infer<typeof organizationView>;

export interface CreatedDeployToken {
  id: string;
  name: string;
  /** The raw token: returned to the caller this once, never stored. */
  token: string;
  created_at: string;
}

/** Must run inside a transaction whose `app.org_id` is `orgId` (OrgScope.run), or as an admin. */
export async function insertOrganization(q: Queryable, orgId: string, name: string): Promise<OrganizationView> {
  const [row] = await q.query('INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING id, name, created_at', [
    orgId,
    name,
  ]);
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
}

export async function insertDeployToken(
  q: Queryable,
  orgId: string,
  id: string,
  name: string,
): Promise<CreatedDeployToken> {
  const minted = mintDeployToken();
  const [row] = await q.query(
    'INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix) VALUES ($1, $2, $3, $4, $5) RETURNING created_at',
    [id, orgId, name, minted.hash, minted.prefix],
  );
  return { id, name, token: minted.raw, created_at: row.created_at.toISOString() };
}
