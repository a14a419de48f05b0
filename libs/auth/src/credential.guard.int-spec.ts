import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseConfigFromEnv, OrgScope } from '@agentwatch/db';
import { ExecutionContext, HttpException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { importJWK, JWK, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { AuthConfig, DEV_AUDIENCE, DEV_ISSUER } from './auth.config';
import { Authenticated, CredentialGuard, DAEMON_OR_USER } from './credential.guard';
import { ensureDevIssuerKeys } from './dev-issuer';
import { mintDeployToken } from './domain/deploy-token';
import { JwtIdentityResolver } from './jwt-identity.resolver';
import { Identity } from './principal';
import { ServiceTokenVerifier } from './service-token.verifier';

const HS256_SECRET = 'a-secret-of-at-least-thirty-two-characters';

class Routes {
  @Authenticated(['jwt'])
  jwtOnly() {}

  @Authenticated(DAEMON_OR_USER)
  daemonOrUser() {}
}

type Answer = Identity | { status: number; body: unknown };

describe('credential guard (passport strategies on a real Postgres)', () => {
  const config = databaseConfigFromEnv();
  const orgId = randomUUID();
  const deployToken = mintDeployToken();
  const dirs: string[] = [];
  let owner: DataSource;
  let app: DataSource;

  async function guard(hs256Secret: string | null) {
    const devIssuerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-credential-guard-'));
    dirs.push(devIssuerDir);
    await ensureDevIssuerKeys(devIssuerDir);
    const auth: AuthConfig = {
      jwksUrl: null,
      issuer: DEV_ISSUER,
      audience: DEV_AUDIENCE,
      hs256Secret,
      orgClaim: 'org_id',
      devIssuerDir,
    };
    const db = new OrgScope(app);
    const instance = new CredentialGuard(
      new Reflector(),
      auth,
      new ServiceTokenVerifier(db),
      new JwtIdentityResolver(auth, db),
    );
    const jwk = JSON.parse(fs.readFileSync(path.join(devIssuerDir, 'private.jwk.json'), 'utf8')) as JWK;
    const key = await importJWK(jwk, 'ES256');
    /** An ES256 token of this guard's issuer; `from` and `until` in seconds relative to now. */
    const es256 = (from: number, until: number) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ org_id: orgId })
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid })
        .setSubject('analyst')
        .setIssuer(DEV_ISSUER)
        .setAudience(DEV_AUDIENCE)
        .setNotBefore(now + from)
        .setExpirationTime(now + until)
        .sign(key);
    };
    return { instance, es256 };
  }

  async function admit(instance: CredentialGuard, handler: () => void, authorization?: string): Promise<Answer> {
    const request: { headers: Record<string, string | undefined>; principal?: Identity } = {
      headers: { authorization },
    };
    const http = { getRequest: () => request, getResponse: () => ({}) };
    const context = { getHandler: () => handler, switchToHttp: () => http } as unknown as ExecutionContext;
    try {
      await instance.canActivate(context);
      return request.principal!;
    } catch (refusal) {
      if (!(refusal instanceof HttpException)) throw refusal;
      return { status: refusal.getStatus(), body: refusal.getResponse() };
    }
  }

  const invalid = { status: 401, body: { error: 'Invalid token' } };
  const admitted = (credential: string) => expect.objectContaining({ orgId, credential });

  beforeAll(async () => {
    owner = await new DataSource({ type: 'postgres', url: config.ownerUrl }).initialize();
    app = await new DataSource({ type: 'postgres', url: config.appUrl }).initialize();
    await owner.transaction(async (tx) => {
      await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
      await tx.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [orgId, 'guarded']);
      await tx.query('INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix) VALUES ($1, $2, $3, $4, $5)', [
        randomUUID(),
        orgId,
        'fleet',
        deployToken.hash,
        deployToken.prefix,
      ]);
    });
  });

  afterAll(async () => {
    await Promise.all([owner?.destroy(), app?.destroy()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps two guards of one process apart: each trusts its own issuer key only', async () => {
    const [first, second] = [await guard(null), await guard(null)];
    const { jwtOnly } = Routes.prototype;
    expect(await admit(first.instance, jwtOnly, `Bearer ${await first.es256(0, 60)}`)).toEqual(admitted('jwt'));
    expect(await admit(second.instance, jwtOnly, `Bearer ${await second.es256(0, 60)}`)).toEqual(admitted('jwt'));
    expect(await admit(first.instance, jwtOnly, `Bearer ${await second.es256(0, 60)}`)).toEqual(invalid);
    expect(await admit(second.instance, jwtOnly, `Bearer ${await first.es256(0, 60)}`)).toEqual(invalid);
  });

  it('tries HS256 only where its secret is configured', async () => {
    const [without, withSecret] = [await guard(null), await guard(HS256_SECRET)];
    const hs256 = await new SignJWT({ org_id: orgId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('analyst')
      .setIssuer(DEV_ISSUER)
      .setAudience(DEV_AUDIENCE)
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode(HS256_SECRET));
    const { jwtOnly } = Routes.prototype;
    expect(await admit(withSecret.instance, jwtOnly, `Bearer ${hs256}`)).toEqual(admitted('jwt'));
    expect(await admit(without.instance, jwtOnly, `Bearer ${hs256}`)).toEqual(invalid);
    // The ES256 strategy still comes first on the guard with the fallback.
    expect(await admit(withSecret.instance, jwtOnly, `Bearer ${await withSecret.es256(0, 60)}`)).toEqual(
      admitted('jwt'),
    );
  });

  it('allows 5 seconds of clock skew on exp and nbf, and not more', async () => {
    const { instance, es256 } = await guard(null);
    const { jwtOnly } = Routes.prototype;
    expect(await admit(instance, jwtOnly, `Bearer ${await es256(-60, -2)}`)).toEqual(admitted('jwt'));
    expect(await admit(instance, jwtOnly, `Bearer ${await es256(-60, -8)}`)).toEqual(invalid);
    expect(await admit(instance, jwtOnly, `Bearer ${await es256(2, 60)}`)).toEqual(admitted('jwt'));
    expect(await admit(instance, jwtOnly, `Bearer ${await es256(8, 60)}`)).toEqual(invalid);
  });

  it('takes a deploy token only on routes that name it, and tells a missing header from an invalid one', async () => {
    const { instance, es256 } = await guard(null);
    const { jwtOnly, daemonOrUser } = Routes.prototype;
    expect(await admit(instance, daemonOrUser, `Bearer ${deployToken.raw}`)).toEqual(admitted('deploy-token'));
    expect(await admit(instance, daemonOrUser, `Bearer ${await es256(0, 60)}`)).toEqual(admitted('jwt'));
    expect(await admit(instance, jwtOnly, `Bearer ${deployToken.raw}`)).toEqual(invalid);
    expect(await admit(instance, daemonOrUser, `Bearer ${deployToken.raw}x`)).toEqual(invalid);
    expect(await admit(instance, daemonOrUser, deployToken.raw)).toEqual(invalid);
    expect(await admit(instance, daemonOrUser, `Bearer ${deployToken.raw} trailing`)).toEqual(invalid);
    expect(await admit(instance, daemonOrUser)).toEqual({
      status: 401,
      body: { error: 'Authorization header required' },
    });
  });
});
