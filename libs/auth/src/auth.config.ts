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

/**
 * Builds the settings and checks the rules that span variables; throws naming the variables. An empty
 * value counts as unset, as for every variable: an empty issuer or audience would not pin anything
 * (the verifier skips an empty claim check), so it takes the default or, with a key set, is refused.
 */
export function authConfigFromEnv(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const value = (name: string) => env[name] || undefined;
  const jwksUrl = value('AUTH_JWKS_URL') ?? null;
  const config: AuthConfig = {
    jwksUrl,
    issuer: value('AUTH_JWT_ISSUER') ?? (jwksUrl ? '' : DEV_ISSUER),
    audience: value('AUTH_JWT_AUDIENCE') ?? (jwksUrl ? '' : DEV_AUDIENCE),
    hs256Secret: value('AUTH_HS256_SECRET') ?? null,
    orgClaim: value('AUTH_ORG_CLAIM') ?? 'org_id',
    devIssuerDir: value('AUTH_DEV_ISSUER_DIR') ?? path.join(process.cwd(), '.local', 'dev-issuer'),
  };
  assertAuthConfig(config);
  return config;
}

export function assertAuthConfig(config: AuthConfig): void {
  const unpinned = [...(config.issuer ? [] : ['AUTH_JWT_ISSUER']), ...(config.audience ? [] : ['AUTH_JWT_AUDIENCE'])];
  if (config.jwksUrl && unpinned.length) {
    throw new Error(
      `${unpinned.join(', ')}: expected a value while AUTH_JWKS_URL is set (tokens of that identity provider are pinned to an issuer and an audience)`,
    );
  }
  if (config.hs256Secret && config.hs256Secret.length < 32) {
    throw new Error(`AUTH_HS256_SECRET: expected at least 32 characters, got ${config.hs256Secret.length}`);
  }
}
