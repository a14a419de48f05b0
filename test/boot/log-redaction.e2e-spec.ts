import { randomUUID } from 'node:crypto';
import { call, FakeIdentityProvider, RunningScoringStack, startScoringStack } from '../../libs/testing/src';

const ISSUER = 'https://idp.logs.test/';
const AUDIENCE = 'agentwatch-logs';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers and log lines, checked field by field
type Json = Record<string, any>;

// Every raw credential this flow mints or uses travels in headers and answers; none may reach a log
// line, at the most talkative level the apps have.
describe('JSON logs: one line per request, and no raw credential in any line', () => {
  let idp: FakeIdentityProvider;
  let stack: RunningScoringStack;
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line) };

  beforeAll(async () => {
    idp = await FakeIdentityProvider.start({ issuer: ISSUER, audience: AUDIENCE });
    stack = await startScoringStack(
      'e2e-log-redaction',
      { AUTH_JWKS_URL: idp.jwksUrl, AUTH_JWT_ISSUER: ISSUER, AUTH_JWT_AUDIENCE: AUDIENCE, LOG_LEVEL: 'debug' },
      { logDestination: destination },
    );
  });

  afterAll(async () => {
    await stack?.stop();
    await idp?.stop();
  });

  it('logs route, status, latency, request id and organization, never a token', async () => {
    const api = (route: string, options: Parameters<typeof call>[1] = {}) =>
      call<Json>(`${stack.apiUrl}${route}`, options);
    const jwt = await idp.token({ sub: `logs-${randomUUID()}` });
    const tenant = await api('/v1/tenant', { method: 'POST', token: jwt, body: { name: 'Logged' } });
    expect(tenant.status).toBe(200);
    const orgId = tenant.body.id as string;
    const deploy = (await api('/v1/deploy-tokens', { method: 'POST', token: jwt, body: { name: 'fleet' } })).body
      .token as string;
    expect(deploy).toMatch(/^svc_deploy_/);
    const facts = { machine_id: 'm-1', hostname: 'h', os: 'linux', arch: 'x64', daemon_version: '1.0.0' };
    const machine = (await api('/v1/machines/register', { method: 'POST', token: deploy, body: facts })).body
      .service_token as string;
    expect(machine).toMatch(/^svc_machine_/);
    const event = { action_type: 'FILE_READ', timestamp: new Date().toISOString(), session_id: randomUUID() };
    expect((await api('/v1/events/ingest', { method: 'POST', token: machine, body: { events: [event] } })).status).toBe(
      200,
    );
    const apiKey = (await api('/v1/api-keys', { method: 'POST', token: jwt, body: { name: 'k' } })).body.key as string;
    expect(apiKey).toMatch(/^aw_sk_/);
    const policy = await call(`${stack.scoringUrl}/policies/${orgId}`, { headers: { 'x-api-key': apiKey } });
    expect(policy.status).toBeLessThan(500);
    // Credentials where a careless client puts them: the query string, a cookie, a refused token.
    await api(`/v1/sessions?token=${deploy}&api_key=${apiKey}`, { token: jwt, headers: { cookie: `s=${jwt}` } });
    expect((await api('/v1/sessions', { token: `${deploy}x` })).status).toBe(401);

    const output = lines.join('');
    for (const secret of [jwt, deploy, machine, apiKey]) {
      expect({ secret: secret.slice(0, 12), found: output.includes(secret) }).toEqual({
        secret: secret.slice(0, 12),
        found: false,
      });
      // Nor a recognisable part of one (a JWT's signature, a token's random tail).
      expect(output.includes(secret.slice(-24))).toBe(false);
    }

    const requests = lines.map((line) => JSON.parse(line) as Json).filter((entry) => entry.req && entry.res);
    const created = requests.find((entry) => entry.route === '/v1/deploy-tokens' && entry.req.method === 'POST');
    expect(created).toMatchObject({
      level: 30,
      org_id: orgId,
      req: { id: expect.any(String), method: 'POST', url: '/v1/deploy-tokens' },
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
    });
    expect(created?.req.headers).toBeUndefined();
    const listed = requests.find((entry) => entry.route === '/v1/sessions' && entry.res.statusCode === 200);
    expect(listed?.req.url).toBe('/v1/sessions');
    const scored = requests.find((entry) => entry.route === '/policies/:customer_id');
    expect(scored).toMatchObject({ org_id: orgId });
  });

  it("keeps a caller's plain X-Request-Id, replaces any other, and logs the id it answers with", async () => {
    const kept = await call(`${stack.apiUrl}/v1/sessions`, { headers: { 'x-request-id': 'trace-42.a:b' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a:b');
    const replaced = await call(`${stack.apiUrl}/v1/sessions`, { headers: { 'x-request-id': 'no spaces <here>' } });
    const generated = replaced.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const ids = lines.map((line) => JSON.parse(line) as Json).map((entry) => entry.req?.id);
    expect(ids).toEqual(expect.arrayContaining(['trace-42.a:b', generated]));
  });
});
