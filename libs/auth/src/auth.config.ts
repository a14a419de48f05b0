import path from 'node:path';

// An abstract class rather than an interface so that it doubles as the Nest injection token.
export abstract class AuthConfig {
  /** ES256 key set of the identity provider; null → the local development issuer's key. */
  abstract jwksUrl: string | null;
  abstract issuer: string;
  abstract audience: string;
  /** HS256 fallback secret; null → HS256 tokens are refused. */
  abstract hs256Secret: string | null;
  /** Claim naming the organization; without it the caller's membership decides. */
  abstract orgClaim: string;
  /** Where the development issuer keeps its key pair (used only when jwksUrl is null). */
  abstract devIssuerDir: string;
}

export const DEV_ISSUER = 'agentwatch-dev';
export const DEV_AUDIENCE = 'agentwatch';

export function authConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const jwksUrl = env.AUTH_JWKS_URL || null;
  return {
    jwksUrl,
    issuer: env.AUTH_JWT_ISSUER ?? (jwksUrl ? '' : DEV_ISSUER),
    audience: env.AUTH_JWT_AUDIENCE ?? (jwksUrl ? '' : DEV_AUDIENCE),
    hs256Secret: env.AUTH_HS256_SECRET || null,
    orgClaim: env.AUTH_ORG_CLAIM || 'org_id',
    devIssuerDir: env.AUTH_DEV_ISSUER_DIR ?? path.join(process.cwd(), '.local', 'dev-issuer'),
  };
}

export function assertAuthConfig(config: AuthConfig): void {
  if (config.jwksUrl && (!config.issuer || !config.audience)) {
    throw new Error('AUTH_JWKS_URL is set: AUTH_JWT_ISSUER and AUTH_JWT_AUDIENCE must be set too (both are pinned)');
  }
  if (config.hs256Secret && config.hs256Secret.length < 32) {
    throw new Error('AUTH_HS256_SECRET must be at least 32 characters');
  }
}
