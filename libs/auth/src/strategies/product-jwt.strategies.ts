import { PassportStrategy } from '@nestjs/passport';
import { createLocalJWKSet, createRemoteJWKSet, JWTPayload } from 'jose';
import { ExtractJwt, Strategy as JwtStrategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import { AuthConfig } from '../auth.config';
import { readDevPublicKey } from '../dev-issuer';
import { JwtIdentityResolver } from '../jwt-identity.resolver';
import { bearerCredential } from '../passport/bearer';
import { KeySet, keyFromSet } from '../passport/jwks-key';
import { UNREGISTERED } from '../passport/scoped-passport';
import { Identity } from '../principal';

/** Seconds of clock skew allowed on `exp` and `nbf` between the identity provider and this service. */
const CLOCK_TOLERANCE_S = 5;

export const ES256_STRATEGY = 'jwt-es256';
export const HS256_STRATEGY = 'jwt-hs256';

/**
 * Both product strategies pin the issuer and audience; each pins its own single algorithm, so a token's
 * `alg` header never picks a key: an HS256 token "signed" with the public key reaches only the HS256
 * strategy and its secret, and `none` is no algorithm of either.
 */
const pinned = (config: AuthConfig) =>
  ({
    jwtFromRequest: ExtractJwt.fromExtractors([bearerCredential as never]),
    issuer: config.issuer,
    audience: config.audience,
    jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_S },
  }) satisfies Partial<StrategyOptionsWithoutRequest>;

/** The organization of the verified claims (JwtIdentityResolver); null fails the strategy. */
async function identify(identities: JwtIdentityResolver, claims: JWTPayload): Promise<Identity | null> {
  // jsonwebtoken checks `exp` and `nbf` types but not `iat`'s; a non-numeric `iat` is a malformed token.
  if (claims.iat !== undefined && typeof claims.iat !== 'number') return null;
  return identities.resolve(claims);
}

function productKeySet(config: AuthConfig): () => KeySet | null {
  if (config.jwksUrl) {
    const remote = createRemoteJWKSet(new URL(config.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
    return () => remote;
  }
  const devKey = readDevPublicKey(config.devIssuerDir);
  const local = devKey ? createLocalJWKSet({ keys: [devKey] }) : null;
  return () => local;
}

/** ES256 against the identity provider's key set (the local development issuer's while AUTH_JWKS_URL is unset). */
export class Es256Strategy extends PassportStrategy(JwtStrategy, ES256_STRATEGY) {
  constructor(
    config: AuthConfig,
    private readonly identities: JwtIdentityResolver,
  ) {
    super({
      ...pinned(config),
      secretOrKeyProvider: keyFromSet(productKeySet(config), 'ES256'),
      algorithms: ['ES256'],
    });
  }

  validate(claims: JWTPayload): Promise<Identity | null> {
    return identify(this.identities, claims);
  }

  getPassportInstance() {
    return UNREGISTERED;
  }
}

/** The HS256 fallback with the configured secret; built only when AUTH_HS256_SECRET is set. */
export class Hs256Strategy extends PassportStrategy(JwtStrategy, HS256_STRATEGY) {
  constructor(
    config: AuthConfig & { hs256Secret: string },
    private readonly identities: JwtIdentityResolver,
  ) {
    super({ ...pinned(config), secretOrKey: config.hs256Secret, algorithms: ['HS256'] });
  }

  validate(claims: JWTPayload): Promise<Identity | null> {
    return identify(this.identities, claims);
  }

  getPassportInstance() {
    return UNREGISTERED;
  }
}
