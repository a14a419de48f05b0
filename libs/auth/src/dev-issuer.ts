import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, JWK, SignJWT } from 'jose';
import { DEV_AUDIENCE, DEV_ISSUER } from './auth.config';

/**
 * The local stack's identity provider: an ES256 key pair kept in the git-ignored .local/ dir, so
 * that `npm start` users can mint tokens (`agentwatch dev-token`). The API trusts it only while
 * AUTH_JWKS_URL is unset.
 */
export async function ensureDevIssuerKeys(dir: string): Promise<void> {
  if (fs.existsSync(path.join(dir, 'public.jwk.json'))) return;
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `dev-${Date.now().toString(36)}`;
  // Written aside, then renamed into place whole: apps and test suites starting at once on a fresh
  // clone all end up with the first pair, never one's private key beside another's public key.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.staging-`);
  fs.writeFileSync(path.join(staging, 'private.jwk.json'), JSON.stringify({ ...(await exportJWK(privateKey)), kid }), {
    mode: 0o600,
  });
  fs.writeFileSync(
    path.join(staging, 'public.jwk.json'),
    JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }),
  );
  try {
    fs.renameSync(staging, dir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    if (!fs.existsSync(path.join(dir, 'public.jwk.json'))) {
      throw new Error(`${dir} holds no development issuer public key: remove the folder to have a new pair made`);
    }
  }
}

export function readDevPublicKey(dir: string): JWK | null {
  const file = path.join(dir, 'public.jwk.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as JWK) : null;
}

export async function mintDevToken(dir: string, claims: Record<string, unknown>, ttlSeconds: number): Promise<string> {
  const jwk = JSON.parse(fs.readFileSync(path.join(dir, 'private.jwk.json'), 'utf8')) as JWK;
  const key = await importJWK(jwk, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key);
}
