import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importJWK, JWK, jwtVerify } from 'jose';
import { DEV_AUDIENCE, DEV_ISSUER } from './auth.config';
import { ensureDevIssuerKeys, mintDevToken, readDevPublicKey } from './dev-issuer';

describe('the development issuer keys', () => {
  let parent: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-issuer-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('are one pair, in place whole, when asked for several times at once', async () => {
    const dir = path.join(parent, '.local', 'dev-issuer');
    await Promise.all(Array.from({ length: 8 }, () => ensureDevIssuerKeys(dir)));

    const token = await mintDevToken(dir, { sub: 'someone' }, 60);
    const publicKey = await importJWK(readDevPublicKey(dir) as JWK, 'ES256');
    const { payload } = await jwtVerify(token, publicKey, { issuer: DEV_ISSUER, audience: DEV_AUDIENCE });
    expect(payload.sub).toBe('someone');
    expect(fs.readdirSync(path.dirname(dir))).toEqual(['dev-issuer']);
  });

  it('are kept once they exist', async () => {
    const dir = path.join(parent, 'dev-issuer');
    await ensureDevIssuerKeys(dir);
    const first = readDevPublicKey(dir);
    await ensureDevIssuerKeys(dir);
    expect(readDevPublicKey(dir)).toEqual(first);
  });

  it('refuses a folder left without its public key rather than leave the API without one', async () => {
    const dir = path.join(parent, 'dev-issuer');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'private.jwk.json'), '{}');
    await expect(ensureDevIssuerKeys(dir)).rejects.toThrow(`${dir} holds no development issuer public key`);
  });
});
