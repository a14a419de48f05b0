import { randomUUID } from 'node:crypto';
import { call, FakeIdentityProvider, RunningStack, startStack } from '@agentwatch/testing';
import { queryDatabase } from '../../libs/testing/src/control-plane-stack';

const ISSUER = 'https://idp.agentwatch.test';
const AUDIENCE = 'agentwatch-cloud';

// What a signed-in console reads of its organization: the organization itself and its enrolled machines.
describe('organization reads: GET /v1/tenant, GET /v1/machines', () => {
  let idp: FakeIdentityProvider;
  let stack: RunningStack;

  const api = (path: string, options: Parameters<typeof call>[1] = {}) => call(`${stack.apiUrl}${path}`, options);
  const tenant = async (name: string) => {
    const token = await idp.token({ sub: `${name}-${randomUUID()}` });
    const created = await api('/v1/tenant', { method: 'POST', token, body: { name } });
    expect(created.status).toBe(200);
    const deploy = await api('/v1/deploy-tokens', { method: 'POST', token, body: { name: 'enroll' } });
    return {
      jwt: token,
      organization: created.body,
      deployToken: deploy.body.token as string,
      deployTokenId: deploy.body.id as string,
    };
  };
  const register = (deployToken: string, machine_id: string, hostname: string) =>
    api('/v1/machines/register', {
      method: 'POST',
      token: deployToken,
      body: { machine_id, hostname, os: 'linux', arch: 'x86_64', daemon_version: '2.0.1' },
    });

  beforeAll(async () => {
    idp = await FakeIdentityProvider.start({ issuer: ISSUER, audience: AUDIENCE });
    stack = await startStack('e2e-org-reads', {
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await idp?.stop();
  });

  describe('GET /v1/tenant', () => {
    it('answers 404 for a JWT of no organization yet, then the organization it creates', async () => {
      const token = await idp.token({ sub: `newcomer-${randomUUID()}` });
      expect(await api('/v1/tenant', { token })).toMatchObject({
        status: 404,
        body: { error: 'Organization not found' },
      });
      const created = await api('/v1/tenant', { method: 'POST', token, body: { name: 'Initech' } });
      const read = await api('/v1/tenant', { token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);
      expect(read.body).toEqual({ id: expect.any(String), name: 'Initech', created_at: expect.any(String) });
    });

    it("answers each caller its own organization, by membership or by the token's organization claim", async () => {
      const [a, b] = await Promise.all([tenant('Umbrella'), tenant('Hooli')]);
      expect((await api('/v1/tenant', { token: a.jwt })).body).toEqual(a.organization);
      expect((await api('/v1/tenant', { token: b.jwt })).body).toEqual(b.organization);
      const claimed = await idp.token({ sub: `visitor-${randomUUID()}`, org_id: b.organization.id });
      expect((await api('/v1/tenant', { token: claimed })).body).toEqual(b.organization);
    });

    it('takes a JWT only', async () => {
      const { deployToken } = await tenant('Vandelay');
      expect(await api('/v1/tenant')).toMatchObject({ status: 401, body: { error: 'Authorization header required' } });
      expect(await api('/v1/tenant', { token: deployToken })).toMatchObject({
        status: 401,
        body: { error: 'Invalid token' },
      });
    });
  });

  describe('GET /v1/machines', () => {
    it("lists the organization's machines with their enrollment, never a token, and none of another organization", async () => {
      const owner = await tenant('Massive Dynamic');
      const stranger = await tenant('Soylent');
      const first = await register(owner.deployToken, 'build-01', 'build-01.internal');
      const second = await register(owner.deployToken, 'laptop-7', 'mbp-7');
      await register(stranger.deployToken, 'their-box', 'elsewhere');

      const listed = await api('/v1/machines', { token: owner.jwt });
      expect(listed.status).toBe(200);
      const machine = (machine_id: string, hostname: string) => ({
        machine_id,
        hostname,
        os: 'linux',
        arch: 'x86_64',
        daemon_version: '2.0.1',
        token_prefix: expect.stringMatching(/^svc_machine_/),
        deploy_token_id: owner.deployTokenId,
        registered_at: expect.any(String),
        rotated_at: expect.any(String),
        first_ingest_at: null,
        last_seen_at: expect.any(String),
        revoked_at: null,
      });
      expect(listed.body).toEqual({
        machines: [machine('build-01', 'build-01.internal'), machine('laptop-7', 'mbp-7')],
      });
      const hashes = await queryDatabase<{ token_hash: string }>(stack.env, null, 'SELECT token_hash FROM machines');
      const text = JSON.stringify(listed.body);
      for (const secret of [first.body.service_token, second.body.service_token, ...hashes.map((h) => h.token_hash)]) {
        expect(text).not.toContain(String(secret).slice(18));
      }

      expect((await api('/v1/machines', { token: stranger.jwt })).body).toEqual({
        machines: [expect.objectContaining({ machine_id: 'their-box', deploy_token_id: stranger.deployTokenId })],
      });
      const empty = await tenant('Globex');
      expect((await api('/v1/machines', { token: empty.jwt })).body).toEqual({ machines: [] });
      for (const token of [owner.deployToken, first.body.service_token as string]) {
        expect((await api('/v1/machines', { token })).status).toBe(401);
      }
    });

    it('shows when a machine was last seen, its first ingest and its revocation', async () => {
      const owner = await tenant('Cyberdyne');
      const registered = await register(owner.deployToken, 'edge-3', 'edge-3');
      const serviceToken = registered.body.service_token as string;
      await queryDatabase(
        stack.env,
        null,
        `UPDATE machines SET last_seen_at = '2001-01-01T00:00:00Z' WHERE org_id = $1 AND id = 'edge-3'`,
        [owner.organization.id],
      );

      const ingested = await api('/v1/events/ingest', {
        method: 'POST',
        token: serviceToken,
        body: { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString(), tool_name: 'cat' }] },
      });
      expect(ingested.status).toBe(200);
      expect(await api('/v1/machines/edge-3', { method: 'DELETE', token: owner.jwt })).toMatchObject({ status: 200 });

      const [seen] = (await api('/v1/machines', { token: owner.jwt })).body.machines as Record<string, string>[];
      expect(Date.parse(seen.last_seen_at)).toBeGreaterThan(Date.parse('2001-01-02T00:00:00Z'));
      expect(seen.first_ingest_at).toEqual(expect.any(String));
      expect(seen.revoked_at).toEqual(expect.any(String));
    });
  });
});
