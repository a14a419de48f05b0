import { randomUUID } from 'node:crypto';
import { TOPICS } from '@agentwatch/contracts';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { call, eventually, FakeIdentityProvider, RunningStack, startStack } from '@agentwatch/testing';
import { exportSPKI, importJWK, KeyLike, SignJWT, UnsecuredJWT } from 'jose';

const ISSUER = 'https://idp.agentwatch.test';
const AUDIENCE = 'agentwatch-cloud';
const HS256_SECRET = 'a-shared-secret-for-the-hs256-fallback-path';

describe('identity: JWTs, organizations, deploy tokens, machine enrollment', () => {
  let idp: FakeIdentityProvider;
  let stack: RunningStack;

  const api = (path: string, options: Parameters<typeof call>[1] = {}) => call(`${stack.apiUrl}${path}`, options);
  const tenant = async (sub: string, name = `org of ${sub}`) => {
    const token = await idp.token({ sub });
    const created = await api('/v1/tenant', { method: 'POST', token, body: { name } });
    expect(created.status).toBe(200);
    return { token, orgId: created.body.id as string };
  };
  const ingestOne = (token: string, session: string = randomUUID()) =>
    api('/v1/events/ingest', {
      method: 'POST',
      token,
      body: {
        events: [
          { action_type: 'FILE_READ', timestamp: new Date().toISOString(), session_id: session, tool_name: 'cat' },
        ],
      },
    });

  beforeAll(async () => {
    idp = await FakeIdentityProvider.start({ issuer: ISSUER, audience: AUDIENCE });
    stack = await startStack('e2e-identity', {
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      AUTH_HS256_SECRET: HS256_SECRET,
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await idp?.stop();
  });

  describe('POST /v1/tenant', () => {
    it('creates an organization and makes the caller a member', async () => {
      const token = await idp.token({ sub: `alice-${randomUUID()}` });
      const created = await api('/v1/tenant', { method: 'POST', token, body: { name: 'Acme' } });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({ id: expect.any(String), name: 'Acme', created_at: expect.any(String) });
      // The membership now answers for a token without an organization claim.
      expect((await api('/v1/deploy-tokens', { token })).body).toEqual({ deploy_tokens: [] });
    });

    it('needs a JWT and a name', async () => {
      expect(await api('/v1/tenant', { method: 'POST', body: { name: 'x' } })).toMatchObject({
        status: 401,
        body: { error: 'Authorization header required' },
      });
      const token = await idp.token({ sub: 'bob' });
      const nameless = await api('/v1/tenant', { method: 'POST', token, body: {} });
      expect(nameless).toMatchObject({
        status: 400,
        body: { error: 'Invalid request body', details: [{ path: 'name' }] },
      });
    });

    it('refuses data routes to an identity that belongs to no organization', async () => {
      const token = await idp.token({ sub: `nobody-${randomUUID()}` });
      const answer = await api('/v1/sessions', { token });
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatch(/no organization/);
    });
  });

  describe('deploy tokens', () => {
    it('are shown once, listed without secret, work for ingest, and stop working when revoked', async () => {
      const { token: jwt } = await tenant(`carol-${randomUUID()}`);
      const created = await api('/v1/deploy-tokens', { method: 'POST', token: jwt, body: { name: 'fleet' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'fleet',
        token: expect.stringMatching(/^svc_deploy_/),
        prefix: expect.any(String),
        created_at: expect.any(String),
      });
      const raw = created.body.token as string;

      const listed = await api('/v1/deploy-tokens', { token: jwt });
      expect(listed.body).toEqual({
        deploy_tokens: [
          {
            id: created.body.id,
            name: 'fleet',
            prefix: raw.slice(0, 17),
            created_at: created.body.created_at,
            last_used_at: null,
            revoked_at: null,
          },
        ],
      });
      expect(JSON.stringify(listed.body)).not.toContain(raw.slice(17));

      expect((await ingestOne(raw)).status).toBe(200);
      const used = await api('/v1/deploy-tokens', { token: jwt });
      expect((used.body.deploy_tokens as { last_used_at: string | null }[])[0].last_used_at).not.toBeNull();

      const revoked = await api(`/v1/deploy-tokens/${created.body.id}`, { method: 'DELETE', token: jwt });
      expect(revoked).toMatchObject({
        status: 200,
        body: { deploy_token: { id: created.body.id, revoked_at: expect.any(String) } },
      });
      expect(await ingestOne(raw)).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
    });

    it('are managed with a JWT only, and only within the organization', async () => {
      const { token: jwt } = await tenant(`dave-${randomUUID()}`);
      const { token: otherJwt } = await tenant(`erin-${randomUUID()}`);
      const created = await api('/v1/deploy-tokens', { method: 'POST', token: jwt, body: { name: 'd' } });
      const raw = created.body.token as string;
      expect(await api('/v1/deploy-tokens', { token: raw })).toMatchObject({
        status: 401,
        body: { error: 'Invalid token' },
      });
      expect(await api(`/v1/deploy-tokens/${created.body.id}`, { method: 'DELETE', token: otherJwt })).toMatchObject({
        status: 404,
      });
      expect(await api('/v1/deploy-tokens/not-a-uuid', { method: 'DELETE', token: jwt })).toMatchObject({
        status: 400,
      });
    });
  });

  describe('JWT verification', () => {
    let orgId: string;
    let session: string;

    beforeAll(async () => {
      const owner = await tenant(`frank-${randomUUID()}`);
      orgId = owner.orgId;
      const deploy = await api('/v1/deploy-tokens', { method: 'POST', token: owner.token, body: { name: 'x' } });
      session = randomUUID();
      await ingestOne(deploy.body.token as string, session);
      await eventually(
        () => api(`/v1/sessions/${session}/events`, { token: owner.token }),
        (a) => a.status === 200,
        { what: 'projected event' },
      );
    });

    const expectRefused = async (token: string) =>
      expect(await api(`/v1/sessions/${session}/events`, { token })).toMatchObject({
        status: 401,
        body: { error: 'Invalid token' },
      });

    it('accepts a valid ES256 token with the organization claim, and the HS256 fallback', async () => {
      expect(
        (await api(`/v1/sessions/${session}/events`, { token: await idp.token({ sub: 'x', org_id: orgId }) })).status,
      ).toBe(200);
      const now = Math.floor(Date.now() / 1000);
      const hs = await new SignJWT({ sub: 'x', org_id: orgId })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode(HS256_SECRET));
      expect((await api(`/v1/sessions/${session}/events`, { token: hs })).status).toBe(200);
    });

    it('refuses alg none', async () => {
      await expectRefused(
        new UnsecuredJWT({ sub: 'x', org_id: orgId })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('1m')
          .encode(),
      );
    });

    it('refuses HS256 signed with the key set’s public key (algorithm confusion)', async () => {
      const pem = await exportSPKI((await importJWK(idp.publicJwk, 'ES256')) as KeyLike);
      for (const secret of [pem, JSON.stringify(idp.publicJwk)]) {
        const forged = await new SignJWT({ sub: 'x', org_id: orgId })
          .setProtectedHeader({ alg: 'HS256', kid: idp.kid })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('1m')
          .sign(new TextEncoder().encode(secret));
        await expectRefused(forged);
      }
    });

    it('refuses an unknown kid, a wrong issuer, a wrong audience, an expired token, a token not yet valid, and a foreign key', async () => {
      const claims = { sub: 'x', org_id: orgId };
      await expectRefused(await idp.token(claims, { kid: 'not-in-the-set' }));
      await expectRefused(await idp.token(claims, { issuer: 'https://evil.test' }));
      await expectRefused(await idp.token(claims, { audience: 'another-api' }));
      await expectRefused(await idp.token(claims, { expiresIn: -60 }));
      await expectRefused(await idp.token(claims, { notBefore: 300 }));
      await expectRefused(await idp.token(claims, { foreignKey: true }));
    });

    it('refuses, with 401 on every route, a valid token whose organization claim names no organization', async () => {
      const token = await idp.token({ sub: `mallory-${randomUUID()}`, org_id: randomUUID() });
      const routes: [string, string, unknown?][] = [
        ['POST', '/v1/deploy-tokens', { name: 'fleet' }],
        ['GET', '/v1/deploy-tokens'],
        ['POST', '/v1/tenant', { name: 'ghost' }],
        ['POST', '/v1/events/ingest', { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString() }] }],
        [
          'POST',
          '/v1/sessions/ingest',
          { session_id: randomUUID(), state: 'active', timestamp: new Date().toISOString() },
        ],
        ['GET', '/v1/sessions'],
        ['GET', `/v1/sessions/${session}/events`],
        ['GET', '/v1/events'],
        ['GET', '/v1/events/stats'],
        ['GET', '/v1/agents'],
        ['POST', '/v1/api-keys', { name: 'k' }],
      ];
      for (const [method, path, body] of routes) {
        const answer = await api(path, { method, token, body });
        expect({ method, path, status: answer.status, body: answer.body }).toEqual({
          method,
          path,
          status: 401,
          body: { error: 'Invalid token' },
        });
      }
      // The same claim naming an existing organization is served.
      const known = await idp.token({ sub: `mallory-${randomUUID()}`, org_id: orgId });
      expect((await api('/v1/deploy-tokens', { method: 'POST', token: known, body: { name: 'fleet' } })).status).toBe(
        201,
      );
    });

    it("never lets a token whose organization claim names another organization read this one's data", async () => {
      const other = await tenant(`grace-${randomUUID()}`);
      const answer = await api(`/v1/sessions/${session}/events`, {
        token: await idp.token({ sub: 'x', org_id: other.orgId }),
      });
      expect(answer).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    });
  });

  describe('machine enrollment', () => {
    it('exchanges a deploy token for a service token that works like one, rotates it on re-registration, and publishes check-ins', async () => {
      const owner = await tenant(`heidi-${randomUUID()}`);
      const deploy = (await api('/v1/deploy-tokens', { method: 'POST', token: owner.token, body: { name: 'enroll' } }))
        .body.token as string;
      const facts = {
        machine_id: 'laptop-42',
        hostname: 'heidi-mbp',
        os: 'darwin',
        arch: 'arm64',
        daemon_version: '1.4.2',
      };

      expect(await api('/v1/machines/register', { method: 'POST', token: owner.token, body: facts })).toMatchObject({
        status: 401,
      });
      const first = await api('/v1/machines/register', { method: 'POST', token: deploy, body: facts });
      expect(first).toMatchObject({
        status: 200,
        body: { machine_id: 'laptop-42', org_id: owner.orgId, service_token: expect.stringMatching(/^svc_machine_/) },
      });
      const serviceToken = first.body.service_token as string;
      expect(await api('/v1/machines/register', { method: 'POST', token: serviceToken, body: facts })).toMatchObject({
        status: 401,
      });

      const session = randomUUID();
      expect((await ingestOne(serviceToken, session)).status).toBe(200);
      expect((await ingestOne(serviceToken, session)).status).toBe(200);
      expect(
        (
          await eventually(
            () => api(`/v1/sessions/${session}/events`, { token: serviceToken }),
            (a) => a.status === 200,
          )
        ).status,
      ).toBe(200);

      const second = await api('/v1/machines/register', { method: 'POST', token: deploy, body: facts });
      expect(second.body.service_token).not.toBe(serviceToken);
      expect(await ingestOne(serviceToken)).toMatchObject({ status: 401, body: { error: 'Invalid token' } });
      expect((await ingestOne(second.body.service_token as string)).status).toBe(200);

      const revoked = await api('/v1/machines/laptop-42', { method: 'DELETE', token: owner.token });
      expect(revoked).toMatchObject({ status: 200, body: { machine_id: 'laptop-42', revoked_at: expect.any(String) } });
      expect(await ingestOne(second.body.service_token as string)).toMatchObject({ status: 401 });

      const checkins = await readCheckins(stack.env, owner.orgId, 3);
      expect(checkins.map((c) => [c.reason, c.machine_id])).toEqual([
        ['registered', 'laptop-42'],
        ['first_ingest', 'laptop-42'],
        ['registered', 'laptop-42'],
      ]);
      expect(checkins[0]).toMatchObject({
        hostname: 'heidi-mbp',
        os: 'darwin',
        arch: 'arm64',
        daemon_version: '1.4.2',
      });
    });
  });
});

/** Reads an organization's check-ins from the real topic, in order (they share the org id as key). */
async function readCheckins(env: NodeJS.ProcessEnv, orgId: string, count: number): Promise<Record<string, unknown>[]> {
  const settings = kafkaSettingsFromEnv('identity-test', env);
  const prefix = settings.prefix;
  const kafka = createKafka(settings);
  const consumer = kafka.consumer({ groupId: `${prefix}checkin-reader-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: prefix + TOPICS.ingestCheckins.name, fromBeginning: true });
  const found: Record<string, unknown>[] = [];
  await consumer.run({
    eachMessage: async ({ message }) => {
      const payload = JSON.parse(message.value!.toString());
      if (payload.org_id === orgId) found.push(payload);
    },
  });
  try {
    await eventually(
      async () => found.length,
      (n) => n >= count,
      { what: `${count} check-ins` },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    return found;
  } finally {
    await consumer.disconnect();
  }
}
