import fs from 'node:fs';
import path from 'node:path';
import { ensureDevIssuerKeys, readDevPublicKey } from '@agentwatch/auth';
import { createLocalJWKSet, importJWK, JWK, SignJWT } from 'jose';
import { OperatorAuthSettings } from '../tenancy.settings';

/** Issuer of the local stack's operator tokens, used only while OPERATOR_JWKS_URL is unset. */
export const DEV_OPERATOR_ISSUER = 'agentwatch-operators-dev';

/**
 * The key set operator tokens are checked against: the configured provider's, or the local
 * development operator issuer's (its own key pair, distinct from the product dev issuer's, so a
 * product token never verifies here).
 */
export function operatorKeys(settings: OperatorAuthSettings) {
  return (header: Parameters<ReturnType<typeof createLocalJWKSet>>[0]) => {
    const jwk = readDevPublicKey(settings.devIssuerDir);
    if (!jwk)
      throw new Error('no development operator key: mint a development operator token once (README, Control plane)');
    return createLocalJWKSet({ keys: [jwk] })(header);
  };
}

export async function mintDevOperatorToken(
  settings: OperatorAuthSettings,
  claims: { sub: string; role: 'operator' | 'viewer' },
  ttlSeconds: number,
): Promise<string> {
  if (settings.jwksUrl) throw new Error('OPERATOR_JWKS_URL is set: operator tokens come from that identity provider');
  await ensureDevIssuerKeys(settings.devIssuerDir);
  const jwk = JSON.parse(fs.readFileSync(path.join(settings.devIssuerDir, 'private.jwk.json'), 'utf8')) as JWK;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ [settings.roleClaim]: claims.role, azp: settings.clientId })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(settings.issuer)
    .setAudience(settings.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(await importJWK(jwk, 'ES256'));
}
