import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { AuthConfig } from './auth.config';
import { Identity } from './principal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The organization of a verified JWT: the configured claim when the token carries one (the identity
 * provider vouches for it), otherwise the caller's membership, made by POST /v1/tenant.
 */
@Injectable()
export class JwtIdentityResolver {
  // Only found memberships are cached: a subject that just created its organization is served at once.
  private readonly memberships = new LRUCache<string, string>({ max: 50_000, ttl: 30_000 });

  constructor(
    private readonly config: AuthConfig,
    private readonly db: OrgScope,
  ) {}

  async resolve(claims: JWTPayload): Promise<Identity | null> {
    if (typeof claims.sub !== 'string' || claims.sub === '') return null;
    const claimed = claims[this.config.orgClaim];
    if (claimed !== undefined && (typeof claimed !== 'string' || !UUID.test(claimed))) return null;
    const orgId = typeof claimed === 'string' ? claimed.toLowerCase() : await this.membership(claims.sub);
    return { orgId, credential: 'jwt', credentialId: claims.jti ?? claims.sub, machineId: null, subject: claims.sub };
  }

  remember(subject: string, orgId: string): void {
    this.memberships.set(subject, orgId);
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
