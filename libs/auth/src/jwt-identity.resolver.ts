import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { AuthConfig } from './auth.config';
import { Identity } from './principal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const KNOWN_TTL_MS = 30_000;
const UNKNOWN_TTL_MS = 2_000;

/**
 * The organization of a verified JWT: the configured claim when the token carries one (the identity
 * provider vouches for it), otherwise the caller's membership, made by POST /v1/tenant. A claim
 * naming no organization of this service makes the token invalid (401 on every route): a signature
 * alone must not let a caller write under an organization that does not exist.
 */
@Injectable()
export class JwtIdentityResolver {
  // Only found memberships are cached: a subject that just created its organization is served at once.
  private readonly memberships = new LRUCache<string, string>({ max: 50_000, ttl: KNOWN_TTL_MS });
  // Unknown ids are remembered briefly, so forged claims cost few queries and a new organization is soon known.
  private readonly organizations = new LRUCache<string, boolean>({ max: 50_000, ttl: KNOWN_TTL_MS });

  constructor(
    private readonly config: AuthConfig,
    private readonly db: OrgScope,
  ) {}

  async resolve(claims: JWTPayload): Promise<Identity | null> {
    if (typeof claims.sub !== 'string' || claims.sub === '') return null;
    const claimed = claims[this.config.orgClaim];
    if (claimed !== undefined && (typeof claimed !== 'string' || !UUID.test(claimed))) return null;
    const orgId = typeof claimed === 'string' ? claimed.toLowerCase() : await this.membership(claims.sub);
    if (typeof claimed === 'string' && !(await this.organizationExists(orgId!))) return null;
    return { orgId, credential: 'jwt', credentialId: claims.jti ?? claims.sub, machineId: null, subject: claims.sub };
  }

  remember(subject: string, orgId: string): void {
    this.memberships.set(subject, orgId);
    this.organizations.set(orgId, true);
  }

  private async organizationExists(orgId: string): Promise<boolean> {
    const cached = this.organizations.get(orgId);
    if (cached !== undefined) return cached;
    // Row-level security shows an organization's own row only inside its scope.
    const rows: unknown[] = await this.db.run(orgId, (q) =>
      q.query('SELECT 1 FROM organizations WHERE id = $1', [orgId]),
    );
    const exists = rows.length > 0;
    this.organizations.set(orgId, exists, { ttl: exists ? KNOWN_TTL_MS : UNKNOWN_TTL_MS });
    return exists;
  }

  private async membership(subject: string): Promise<string | null> {
    const cached = this.memberships.get(subject);
    if (cached) return cached;
    const [row] = await this.db.asSubject(subject, (q) =>
      q.query('SELECT org_id FROM memberships WHERE subject = $1 ORDER BY created_at DESC LIMIT 1', [subject]),
    );
    if (row) this.memberships.set(subject, row.org_id);
    return row?.org_id ?? null;
  }
}
