import { KeyObject, sign } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExecutionContext, HttpException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { importJWK, JWK, SignJWT, UnsecuredJWT } from 'jose';
import { OperatorAuthSettings, TenancySettings } from '../tenancy.settings';
import { DEV_OPERATOR_ISSUER, mintDevOperatorToken } from './dev-operator-issuer';
import { FORBIDDEN_BODY, Operator, OperatorGuard, WRITE_FORBIDDEN_BODY } from './operator-auth';

const dirs: string[] = [];

function operatorSettings(issuer = DEV_OPERATOR_ISSUER): OperatorAuthSettings {
  const devIssuerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-operator-auth-'));
  dirs.push(devIssuerDir);
  return { jwksUrl: null, devIssuerDir, issuer, clientId: 'agentwatch-operator', roleClaim: 'role' };
}

const guardFor = (operator: OperatorAuthSettings) =>
  new OperatorGuard(new Reflector(), { operator } as unknown as TenancySettings);

/** The guard on a write route (no access metadata: write is the default) with this Authorization header. */
async function admit(guard: OperatorGuard, authorization?: string): Promise<Operator | HttpException> {
  const request: { headers: Record<string, unknown>; operator?: Operator } = { headers: { authorization } };
  const http = { getRequest: () => request, getResponse: () => ({}) };
  const context = { getHandler: () => admit, switchToHttp: () => http } as unknown as ExecutionContext;
  try {
    await guard.canActivate(context);
    return request.operator!;
  } catch (refusal) {
    if (refusal instanceof HttpException) return refusal;
    throw refusal;
  }
}

const refusal = (answer: Operator | HttpException) =>
  answer instanceof HttpException ? { status: answer.getStatus(), body: answer.getResponse() } : answer;

const privateKey = async (settings: OperatorAuthSettings) => {
  const jwk = JSON.parse(fs.readFileSync(path.join(settings.devIssuerDir, 'private.jwk.json'), 'utf8')) as JWK;
  return { jwk, key: await importJWK(jwk, 'ES256') };
};

/** A compact ES256 JWS with any header (jose refuses to sign unknown critical extensions). */
function signWithHeader(header: object, payload: object, key: unknown): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

const claims = (settings: OperatorAuthSettings) =>
  new SignJWT({ role: 'operator', azp: settings.clientId })
    .setSubject('alice')
    .setIssuer(settings.issuer)
    .setAudience(settings.clientId)
    .setIssuedAt()
    .setExpirationTime('1m');

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('operator guard', () => {
  it('admits an operator of its own issuer, and refuses a viewer on a write route', async () => {
    const settings = operatorSettings();
    const guard = guardFor(settings);
    const token = await mintDevOperatorToken(settings, { sub: 'alice', role: 'operator' }, 60);
    expect(await admit(guard, `Bearer ${token}`)).toEqual({ id: 'alice', role: 'operator' });
    const viewer = await mintDevOperatorToken(settings, { sub: 'bob', role: 'viewer' }, 60);
    expect(refusal(await admit(guard, `Bearer ${viewer}`))).toEqual({ status: 403, body: WRITE_FORBIDDEN_BODY });
  });

  it('keeps the strategies of two guards in one process apart: each trusts its own keys only', async () => {
    const first = operatorSettings();
    const second = operatorSettings();
    const [firstGuard, secondGuard] = [guardFor(first), guardFor(second)];
    const firstToken = await mintDevOperatorToken(first, { sub: 'alice', role: 'operator' }, 60);
    const secondToken = await mintDevOperatorToken(second, { sub: 'carol', role: 'operator' }, 60);
    expect(await admit(firstGuard, `Bearer ${firstToken}`)).toEqual({ id: 'alice', role: 'operator' });
    expect(await admit(secondGuard, `Bearer ${secondToken}`)).toEqual({ id: 'carol', role: 'operator' });
    expect(refusal(await admit(firstGuard, `Bearer ${secondToken}`))).toEqual({ status: 403, body: FORBIDDEN_BODY });
    expect(refusal(await admit(secondGuard, `Bearer ${firstToken}`))).toEqual({ status: 403, body: FORBIDDEN_BODY });
  });

  it('answers the same fixed 403 to a missing, malformed, forged or mis-addressed token', async () => {
    const settings = operatorSettings();
    const guard = guardFor(settings);
    await mintDevOperatorToken(settings, { sub: 'alice', role: 'operator' }, 60);
    const { jwk, key } = await privateKey(settings);
    const publicJwk = JSON.parse(fs.readFileSync(path.join(settings.devIssuerDir, 'public.jwk.json'), 'utf8'));
    const forged = [
      undefined,
      '',
      'Bearer',
      'Bearer not-a-jwt',
      `Bearer ${new UnsecuredJWT({ role: 'operator', azp: settings.clientId }).setSubject('x').setIssuer(settings.issuer).encode()}`,
      // HS256 keyed with the public key's JSON: the algorithm-confusion forgery.
      `Bearer ${await claims(settings)
        .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
        .sign(new TextEncoder().encode(JSON.stringify(publicJwk)))}`,
      `Bearer ${await claims(settings).setProtectedHeader({ alg: 'ES256', kid: 'unknown' }).sign(key)}`,
      `Bearer ${await claims(settings).setIssuer('https://evil.test').setProtectedHeader({ alg: 'ES256', kid: jwk.kid }).sign(key)}`,
      `Bearer ${await claims(settings)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid })
        .sign(key)}`,
      `Bearer ${await claims(settings).setNotBefore('5m').setProtectedHeader({ alg: 'ES256', kid: jwk.kid }).sign(key)}`,
      `Bearer ${await new SignJWT({ role: 'operator', azp: 'product-client' }).setSubject('x').setIssuer(settings.issuer).setAudience('product-client').setProtectedHeader({ alg: 'ES256', kid: jwk.kid }).sign(key)}`,
      // Correctly signed, but with a critical header extension this service does not understand.
      `Bearer ${signWithHeader({ alg: 'ES256', kid: jwk.kid, crit: ['urn:example:must'], 'urn:example:must': 1 }, { sub: 'x', iss: settings.issuer, aud: settings.clientId, role: 'operator' }, key)}`,
      `Bearer ${await new SignJWT({ role: 'root', azp: settings.clientId }).setSubject('x').setIssuer(settings.issuer).setProtectedHeader({ alg: 'ES256', kid: jwk.kid }).sign(key)}`,
    ];
    for (const authorization of forged) {
      expect({ authorization, answer: refusal(await admit(guard, authorization)) }).toEqual({
        authorization,
        answer: { status: 403, body: FORBIDDEN_BODY },
      });
    }
  });
});
