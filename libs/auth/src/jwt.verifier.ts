import { Injectable, Logger } from '@nestjs/common';
import { createLocalJWKSet, createRemoteJWKSet, JWTPayload, JWTVerifyGetKey, jwtVerify } from 'jose';
import { AuthConfig } from './auth.config';
import { readDevPublicKey } from './dev-issuer';

/**
 * Identity-provider JWTs: ES256 against the configured key set first (key chosen by `kid` among EC
 * keys), then HS256 with the configured secret as the fallback the spec allows. Each verifier is
 * pinned to its own algorithm, issuer and audience, so a token's `alg` header never picks a key:
 * an HS256 token "signed" with the public key reaches only the HS256 verifier and its secret.
 */
@Injectable()
export class JwtVerifier {
  private readonly logger = new Logger(JwtVerifier.name);
  private readonly keySet: JWTVerifyGetKey | null;
  private readonly hs256Key: Uint8Array | null;

  constructor(private readonly config: AuthConfig) {
    if (config.jwksUrl) {
      this.keySet = createRemoteJWKSet(new URL(config.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
    } else {
      const devKey = readDevPublicKey(config.devIssuerDir);
      this.keySet = devKey ? createLocalJWKSet({ keys: [devKey] }) : null;
    }
    this.hs256Key = config.hs256Secret ? new TextEncoder().encode(config.hs256Secret) : null;
  }

  async verify(token: string): Promise<JWTPayload | null> {
    const pinned = { issuer: this.config.issuer, audience: this.config.audience, clockTolerance: 5 };
    if (this.keySet) {
      try {
        return (await jwtVerify(token, this.keySet, { ...pinned, algorithms: ['ES256'] })).payload;
      } catch (error) {
        this.logger.debug(`ES256 verification failed: ${(error as Error).message}`);
      }
    }
    if (this.hs256Key) {
      try {
        return (await jwtVerify(token, this.hs256Key, { ...pinned, algorithms: ['HS256'] })).payload;
      } catch (error) {
        this.logger.debug(`HS256 verification failed: ${(error as Error).message}`);
      }
    }
    return null;
  }
}
