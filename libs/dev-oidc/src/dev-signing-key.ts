import fs from 'node:fs';
import path from 'node:path';
import { ensureDevIssuerKeys, readDevPublicKey } from '@agentwatch/auth';
import { importJWK, JWK, SignJWT } from 'jose';

export interface IdTokenClaims {
  issuer: string;
  audience: string;
  subject: string;
  ttlSeconds: number;
  claims: Record<string, unknown>;
}

/**
 * The development issuer's key pair (the one the API trusts for its access tokens): it signs the id
 * tokens too, and its public half is this provider's key set. The files are read on every use, so a
 * key dir recreated while the console runs is picked up.
 */
export class DevSigningKey {
  constructor(readonly dir: string) {}

  ensure(): Promise<void> {
    return ensureDevIssuerKeys(this.dir);
  }

  publicJwk(): JWK | null {
    return readDevPublicKey(this.dir);
  }

  async signIdToken({ issuer, audience, subject, ttlSeconds, claims }: IdTokenClaims): Promise<string> {
    const jwk = JSON.parse(fs.readFileSync(path.join(this.dir, 'private.jwk.json'), 'utf8')) as JWK;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(await importJWK(jwk, 'ES256'));
  }
}
