import { call, eventually } from '@agentwatch/testing';
import {
  controlPlaneEnv,
  isolatedDatabase,
  Operators,
  RunningControlPlane,
  startControlPlaneApp,
  startOperators,
  uniqueSlug,
} from '../../libs/testing/src/control-plane-stack';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Body = Record<string, any>;

// GET /v1/tenants over HTTP: who may list, the state filter (the offboard flow's state while one is
// live), keyset pages newest first, and the 400s of this surface's `{error, detail}` shape.
describe('tenant list', () => {
  let operators: Operators;
  let cp: RunningControlPlane;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cplist');
    cp = await startControlPlaneApp(controlPlaneEnv('tenancy-list', operators, db.env));
  });

  afterAll(async () => {
    await cp?.stop();
    await operators?.idp.stop();
    await db?.drop();
  });

  const listAs = (token: string | undefined, query = '') => call<Body>(`${cp.url}/v1/tenants${query}`, { token });
  const list = (query = '') => listAs(operators.viewer, query);
  const post = (path: string, token: string, payload?: unknown) =>
    call<Body>(`${cp.url}${path}`, { method: 'POST', token, body: payload });
  const detail = async (slug: string) =>
    (await call<Body>(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body;
  const request = async (label: string, planTier = 'core') => {
    const slug = uniqueSlug(label);
    const body = {
      slug,
      name: `${label} Inc`,
      owner_email: 'it@x.test',
      region: 'local',
      plan_tier: planTier,
      isolation: 'shared',
    };
    expect((await post('/v1/tenants', operators.alice, body)).status).toBe(202);
    await eventually(
      async () => (await detail(slug)).state,
      (s) => s === 'pending-approval',
      { what: `${slug} pending-approval` },
    );
    return slug;
  };
  /** Every page of a listing, followed by its next_cursor. */
  const allPages = async (query: string) => {
    const pages: Body[] = [];
    let cursor: string | null = null;
    do {
      const answer = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      pages.push(answer.body);
      cursor = answer.body.next_cursor;
    } while (cursor !== null && pages.length < 50);
    return pages;
  };
  const shown = async (slug: string, query = '') =>
    ((await list(query)).body.tenants as Body[]).find((t) => t.slug === slug);

  it('lets operators and viewers list, and answers anyone else the fixed 403', async () => {
    for (const token of [operators.viewer, operators.alice]) expect((await listAs(token)).status).toBe(200);
    for (const token of [undefined, 'not-a-jwt', operators.product]) {
      expect(await listAs(token)).toMatchObject({
        status: 403,
        body: { error: 'forbidden', detail: 'a valid operator token is required' },
      });
    }
  });

  it('pages newest request first with a cursor, each tenant once, with its summary fields', async () => {
    const slugs: string[] = [];
    for (const tier of ['core', 'team', 'enterprise', 'core', 'team']) slugs.push(await request('page', tier));

    const pages = await allPages('?limit=2');
    expect(pages.slice(0, -1).every((p) => p.tenants.length === 2)).toBe(true);
    const listed = pages.flatMap((p) => p.tenants as Body[]);
    expect(new Set(listed.map((t) => t.slug)).size).toBe(listed.length);
    expect(listed.map((t) => t.slug).filter((s) => slugs.includes(s))).toEqual([...slugs].reverse());
    expect(listed.map((t) => t.requested_at)).toEqual([...listed.map((t) => t.requested_at)].sort().reverse());
    expect((await list()).body).toEqual({ tenants: listed, next_cursor: null });

    expect(listed.find((t) => t.slug === slugs[1])).toEqual({
      slug: slugs[1],
      name: 'page Inc',
      flow_kind: 'onboard',
      state: 'pending-approval',
      presentation: 'awaiting-approval',
      region: 'local',
      plan_tier: 'team',
      requested_by: 'alice@ops.test',
      requested_at: (await detail(slugs[1])).requested_at,
      updated_at: (await detail(slugs[1])).updated_at,
    });
  });

  it('refuses a bad state, limit, cursor or parameter with 400 bad_request', async () => {
    const refused: [string, string][] = [
      ['?state=live', 'state: one of '],
      ['?state=', 'state: one of '],
      ['?state=active&state=failed', 'state: one of '],
      ['?limit=0', 'limit: an integer from 1 to 1000'],
      ['?limit=1001', 'limit: an integer from 1 to 1000'],
      ['?limit=ten', 'limit: an integer from 1 to 1000'],
      ['?cursor=not-a-cursor!', 'cursor: not a next_cursor this API issued'],
      [
        `?cursor=${Buffer.from('["yesterday","x"]').toString('base64url')}`,
        'cursor: not a next_cursor this API issued',
      ],
      ['?status=active', 'status: unknown parameter'],
    ];
    for (const [query, detail] of refused) {
      const answer = await list(query);
      expect({ query, status: answer.status, error: answer.body.error }).toEqual({
        query,
        status: 400,
        error: 'bad_request',
      });
      expect(answer.body.detail).toContain(detail);
    }
    expect((await list('?limit=1000')).status).toBe(200);
  });

  it('filters by the state shown, which is the live offboard flow’s while a deprovision is open', async () => {
    const pending = await request('pend');
    const rejected = await request('rej');
    expect((await post(`/v1/tenants/${rejected}/reject`, operators.bob, { reason: 'not a customer' })).status).toBe(
      200,
    );
    const offboarding = await request('off');
    expect((await post(`/v1/tenants/${offboarding}/approve`, operators.bob)).status).toBe(200);
    await eventually(
      async () => (await detail(offboarding)).state,
      (s) => s === 'awaiting-first-checkin',
      { what: 'awaiting-first-checkin' },
    );
    const slugsIn = async (state: string) =>
      (await allPages(`?state=${state}&limit=1`)).flatMap((p) => (p.tenants as Body[]).map((t) => t.slug));

    expect(await shown(offboarding, '?state=awaiting-first-checkin')).toMatchObject({
      flow_kind: 'onboard',
      presentation: 'waiting-for-daemon',
    });
    const opened = await post(`/v1/tenants/${offboarding}/deprovision`, operators.alice, {
      justification: 'duplicate tenant opened by mistake',
    });
    expect(opened.status).toBe(202);
    expect(await shown(offboarding)).toMatchObject({
      flow_kind: 'offboard',
      state: 'pending-approval',
      presentation: 'awaiting-approval',
      requested_by: 'alice@ops.test',
      updated_at: (await detail(offboarding)).deprovision.updated_at,
    });
    expect(await slugsIn('pending-approval')).toEqual(expect.arrayContaining([pending, offboarding]));
    expect(await slugsIn('awaiting-first-checkin')).not.toContain(offboarding);
    const onlyRejected = await slugsIn('rejected');
    expect(onlyRejected).toContain(rejected);
    expect(onlyRejected).not.toEqual(expect.arrayContaining([pending]));
    for (const t of (await list('?state=rejected')).body.tenants as Body[]) expect(t.state).toBe('rejected');

    // The offboard flow rejected: the tenant shows its provisioning flow again.
    expect((await post(`/v1/tenants/${offboarding}/reject`, operators.bob, { reason: 'keep it' })).status).toBe(200);
    expect(await shown(offboarding)).toMatchObject({ flow_kind: 'onboard', state: 'awaiting-first-checkin' });
    expect(await slugsIn('awaiting-first-checkin')).toContain(offboarding);
    expect((await post(`/v1/tenants/${offboarding}/cancel`, operators.alice, { reason: 'withdrawn' })).status).toBe(
      200,
    );
    expect(await slugsIn('cancelled')).toContain(offboarding);
  });

  it('lists a slug requested again once, as its new flow', async () => {
    const slug = uniqueSlug('again');
    const body = {
      slug,
      name: 'Again Ltd',
      owner_email: 'it@x.test',
      region: 'local',
      plan_tier: 'core',
      isolation: 'shared',
    };
    expect((await post('/v1/tenants', operators.alice, body)).status).toBe(202);
    await eventually(
      async () => (await detail(slug)).state,
      (s) => s === 'pending-approval',
      { what: 'first request pending' },
    );
    expect((await post(`/v1/tenants/${slug}/reject`, operators.bob, { reason: 'wrong tier' })).status).toBe(200);
    expect((await post('/v1/tenants', operators.alice, { ...body, plan_tier: 'enterprise' })).status).toBe(202);
    await eventually(
      async () => (await detail(slug)).plan_tier,
      (tier) => tier === 'enterprise',
      { what: 'second request' },
    );
    const rows = ((await list()).body.tenants as Body[]).filter((t) => t.slug === slug);
    expect(rows).toEqual([
      expect.objectContaining({ plan_tier: 'enterprise', requested_at: (await detail(slug)).requested_at }),
    ]);
  });
});
