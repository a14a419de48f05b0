import { authConfigFromEnv, ensureDevIssuerKeys, mintDevToken } from '@agentwatch/auth';
import { call, createOrganization, eventually, RunningScoringStack, startScoringStack } from '@agentwatch/testing';
import { queryDatabase } from '../../libs/testing/src/control-plane-stack';

describe('scoring-API keys issued by the cloud API', () => {
  let stack: RunningScoringStack;
  let devIssuerDir: string;

  beforeAll(async () => {
    stack = await startScoringStack('e2e-api-keys');
    devIssuerDir = authConfigFromEnv(stack.env).devIssuerDir;
    await ensureDevIssuerKeys(devIssuerDir);
  });

  afterAll(() => stack?.stop());

  /** An organization and a JWT acting for it, as the product console holds after sign-in. */
  const signedIn = async (name: string) => {
    const org = await createOrganization(name, stack.env);
    return { ...org, jwt: await mintDevToken(devIssuerDir, { sub: `admin of ${name}`, org_id: org.orgId }, 300) };
  };
  const createKey = (jwt: string, body: Record<string, unknown>) =>
    call(`${stack.apiUrl}/v1/api-keys`, { method: 'POST', token: jwt, body });
  /** A scoring read that any valid key of the customer may make (an empty history is 200). */
  const readWithKey = (orgId: string, key: string) =>
    call(`${stack.scoringUrl}/policies/${orgId}/versions`, { headers: { 'x-api-key': key } });
  const setExpiry = (keyId: string, sql: string) =>
    queryDatabase(stack.env, null, `UPDATE api_keys SET expires_at = ${sql} WHERE id = $1`, [keyId]);

  it('POST /v1/api-keys returns a key once, which reads its own customer on the scoring API and no other', async () => {
    const [mine, other] = await Promise.all([
      createOrganization('key owner', stack.env),
      createOrganization('someone else', stack.env),
    ]);
    const jwt = await mintDevToken(devIssuerDir, { sub: 'key-admin', org_id: mine.orgId }, 300);

    const created = await createKey(jwt, { name: 'dashboards' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'dashboards',
      key: expect.stringMatching(/^aw_sk_/),
      prefix: expect.any(String),
      created_at: expect.any(String),
      expires_at: null,
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
    expect((await createKey(mine.token, { name: 'x' })).status).toBe(401);
    expect((await createKey(jwt, {})).status).toBe(400);
  });

  it('gives a key with ttl_seconds an expires_at, and refuses a ttl outside 60..86400 seconds', async () => {
    const { jwt } = await signedIn('short-lived keys');
    const created = await createKey(jwt, { name: 'console session', ttl_seconds: 60 });
    expect(created.status).toBe(201);
    const { created_at, expires_at } = created.body as { created_at: string; expires_at: string };
    expect(Date.parse(expires_at) - Date.parse(created_at)).toBe(60_000);
    expect((await createKey(jwt, { name: 'a day', ttl_seconds: 86_400 })).status).toBe(201);
    expect((await createKey(jwt, { name: 'no end', ttl_seconds: null })).body).toMatchObject({ expires_at: null });
    for (const ttl_seconds of [59, 86_401, 90.5, '600']) {
      expect(await createKey(jwt, { name: 'bad ttl', ttl_seconds })).toMatchObject({
        status: 400,
        body: { error: 'Invalid request body', details: [{ path: 'ttl_seconds' }] },
      });
    }
  });

  it('lists the organization’s keys without the key or its hash, and none of another organization', async () => {
    const owner = await signedIn('listed keys');
    const stranger = await signedIn('no keys');
    const forever = (await createKey(owner.jwt, { name: 'ci' })).body;
    const brief = (await createKey(owner.jwt, { name: 'console', ttl_seconds: 600 })).body;

    const listed = await call(`${stack.apiUrl}/v1/api-keys`, { token: owner.jwt });
    expect(listed).toMatchObject({ status: 200 });
    expect(listed.body).toEqual({
      api_keys: [forever, brief].map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        created_at: k.created_at,
        expires_at: k.expires_at,
        revoked_at: null,
      })),
    });
    const hashes = await queryDatabase<{ key_hash: string }>(
      stack.env,
      null,
      'SELECT key_hash FROM api_keys WHERE org_id = $1',
      [owner.orgId],
    );
    const text = JSON.stringify(listed.body);
    for (const secret of [forever.key, brief.key, ...hashes.map((h) => h.key_hash)]) {
      expect(text).not.toContain(String(secret).slice(10));
    }
    expect((await call(`${stack.apiUrl}/v1/api-keys`, { token: stranger.jwt })).body).toEqual({ api_keys: [] });
    expect((await call(`${stack.apiUrl}/v1/api-keys`, { token: owner.token })).status).toBe(401);
  });

  it('refuses an expired key exactly as an unknown key, cached or not', async () => {
    const { orgId, jwt } = await signedIn('expiring keys');
    const unknown = await readWithKey(orgId, 'aw_sk_never-issued');
    expect(unknown).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });

    // Expired before its first use: the lookup itself refuses it.
    const unused = (await createKey(jwt, { name: 'unused', ttl_seconds: 60 })).body;
    await setExpiry(unused.id as string, `now() - interval '1 second'`);
    const refused = await readWithKey(orgId, unused.key as string);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: unknown.status, body: unknown.body });

    // Accepted, then expired in the database: refused once this replica's cached answer lapses.
    const used = (await createKey(jwt, { name: 'used', ttl_seconds: 60 })).body;
    expect(await readWithKey(orgId, used.key as string)).toMatchObject({ status: 200, body: { versions: [] } });
    await setExpiry(used.id as string, `now() - interval '1 second'`);
    const lapsed = await eventually(
      () => readWithKey(orgId, used.key as string),
      (a) => a.status !== 200,
      { what: 'the expired key refused', timeoutMs: 15_000 },
    );
    expect({ status: lapsed.status, body: lapsed.body }).toEqual({ status: unknown.status, body: unknown.body });

    // A key accepted shortly before its expiry is not served from the cache past it (the cache keeps
    // a found key 10 s otherwise, so this would take longer than the timeout).
    const ending = (await createKey(jwt, { name: 'ending', ttl_seconds: 60 })).body;
    await setExpiry(ending.id as string, `now() + interval '2 seconds'`);
    expect((await readWithKey(orgId, ending.key as string)).status).toBe(200);
    const ended = await eventually(
      () => readWithKey(orgId, ending.key as string),
      (a) => a.status !== 200,
      { what: 'the key refused at its expiry', timeoutMs: 6_000, intervalMs: 200 },
    );
    expect(ended).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
    const listed = (await call(`${stack.apiUrl}/v1/api-keys`, { token: jwt })).body.api_keys as { name: string }[];
    expect(listed.map((k) => k.name)).toEqual(['unused', 'used', 'ending']);
  });

  it('revokes a key of the organization (idempotent), 404 for another organization’s or an unknown id', async () => {
    const owner = await signedIn('revoking keys');
    const stranger = await signedIn('not the owner');
    const created = (await createKey(owner.jwt, { name: 'to revoke' })).body;
    const revoke = (jwt: string, id: string) =>
      call(`${stack.apiUrl}/v1/api-keys/${id}`, { method: 'DELETE', token: jwt });
    expect(await readWithKey(owner.orgId, created.key as string)).toMatchObject({ status: 200 });

    expect(await revoke(stranger.jwt, created.id as string)).toMatchObject({
      status: 404,
      body: { error: 'API key not found' },
    });
    expect(await revoke(owner.jwt, '0193a000-0000-7000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { error: 'API key not found' },
    });
    expect(await revoke(owner.jwt, 'not-a-uuid')).toMatchObject({
      status: 400,
      body: { error: 'Invalid id: expected a UUID' },
    });
    expect(await revoke(owner.token, created.id as string)).toMatchObject({ status: 401 });
    expect((await call(`${stack.apiUrl}/v1/api-keys`, { token: owner.jwt })).body).toMatchObject({
      api_keys: [{ id: created.id, revoked_at: null }],
    });

    const revoked = await revoke(owner.jwt, created.id as string);
    expect(revoked).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        api_key: {
          id: created.id,
          name: 'to revoke',
          prefix: created.prefix,
          created_at: created.created_at,
          expires_at: null,
          revoked_at: expect.any(String),
        },
      },
    });
    expect((await revoke(owner.jwt, created.id as string)).body).toEqual(revoked.body);
    const refused = await eventually(
      () => readWithKey(owner.orgId, created.key as string),
      (a) => a.status !== 200,
      { what: 'the revoked key refused', timeoutMs: 15_000 },
    );
    expect(refused).toMatchObject({ status: 401, body: { error: 'Invalid API key' } });
  });
});
