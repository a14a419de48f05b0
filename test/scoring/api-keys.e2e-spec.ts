import { authConfigFromEnv, ensureDevIssuerKeys, mintDevToken } from '@agentwatch/auth';
import { call, createOrganization, RunningScoringStack, startScoringStack } from '@agentwatch/testing';

describe('scoring-API keys issued by the cloud API', () => {
  let stack: RunningScoringStack;

  beforeAll(async () => {
    stack = await startScoringStack('e2e-api-keys');
  });

  afterAll(() => stack?.stop());

  it('POST /v1/api-keys returns a key once, which reads its own customer on the scoring API and no other', async () => {
    const { devIssuerDir } = authConfigFromEnv(stack.env);
    await ensureDevIssuerKeys(devIssuerDir);
    const [mine, other] = await Promise.all([
      createOrganization('key owner', stack.env),
      createOrganization('someone else', stack.env),
    ]);
    const jwt = await mintDevToken(devIssuerDir, { sub: 'key-admin', org_id: mine.orgId }, 300);

    const created = await call(`${stack.apiUrl}/v1/api-keys`, {
      method: 'POST',
      token: jwt,
      body: { name: 'dashboards' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'dashboards',
      key: expect.stringMatching(/^aw_sk_/),
      prefix: expect.any(String),
      created_at: expect.any(String),
      customer_id: mine.orgId,
    });
    const key = created.body.key as string;

    const policy = { blocked_actions: ['network:evil.example:connect'] };
    const set = await call(`${stack.scoringUrl}/policies/${mine.orgId}`, {
      method: 'POST',
      body: policy,
      headers: { 'x-api-key': key },
    });
    expect(set.status).toBe(201);
    const read = await call(`${stack.scoringUrl}/policies/${mine.orgId}`, { headers: { 'x-api-key': key } });
    expect(read).toMatchObject({ status: 200, body: { customer_id: mine.orgId, policies: policy } });
    expect((await call(`${stack.scoringUrl}/policies/${other.orgId}`, { headers: { 'x-api-key': key } })).status).toBe(
      404,
    );

    // Only a JWT may issue keys; a deploy token may not.
    expect(
      (await call(`${stack.apiUrl}/v1/api-keys`, { method: 'POST', token: mine.token, body: { name: 'x' } })).status,
    ).toBe(401);
    expect((await call(`${stack.apiUrl}/v1/api-keys`, { method: 'POST', token: jwt, body: {} })).status).toBe(400);
  });
});
