import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope, updateReturning } from '@agentwatch/db';
import { invalidBody, notFound } from '@agentwatch/http';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { CreatedDeployToken, insertDeployToken } from '../organizations';
import { ServiceTokenVerifier } from '../service-token.verifier';

export const createDeployTokenBody = z.object({ name: storable(z.string().trim().min(1).max(200)) });

export interface DeployTokenView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = 'id, name, prefix, created_at, last_used_at, revoked_at, token_hash';

interface DeployTokenRow extends Record<'id' | 'name' | 'prefix' | 'token_hash', string> {
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

// Never the token, never its hash.
const toView = (row: DeployTokenRow): DeployTokenView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.created_at.toISOString(),
  last_used_at: iso(row.last_used_at),
  revoked_at: iso(row.revoked_at),
});

/** Deploy-token management (JWT only): create (the raw token is shown once), list, revoke. */
@Injectable()
export class DeployTokens {
  constructor(
    private readonly db: OrgScope,
    private readonly verifier: ServiceTokenVerifier,
  ) {}

  async create(orgId: string, body: unknown): Promise<CreatedDeployToken & { prefix: string }> {
    const validated = validateBody(createDeployTokenBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const created = await this.db.run(orgId, (q) => insertDeployToken(q, orgId, uuidv7(), validated.value.name));
    return { ...created, prefix: created.token.slice(0, 'svc_deploy_'.length + 6) };
  }

  async list(orgId: string): Promise<{ deploy_tokens: DeployTokenView[] }> {
    const rows: DeployTokenRow[] = await this.db.run(orgId, (q) =>
      q.query(`SELECT ${COLUMNS} FROM deploy_tokens WHERE org_id = $1 ORDER BY created_at, id`, [orgId]),
    );
    return { deploy_tokens: rows.map(toView) };
  }

  async revoke(orgId: string, id: string): Promise<{ deploy_token: DeployTokenView }> {
    const [row] = await this.db.run(orgId, (q) =>
      updateReturning<DeployTokenRow>(
        q,
        `UPDATE deploy_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE org_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [orgId, id],
      ),
    );
    if (!row) throw notFound('Deploy token');
    this.verifier.forgetHash(row.token_hash);
    return { deploy_token: toView(row) };
  }
}
