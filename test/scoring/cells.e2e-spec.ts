import { randomUUID } from 'node:crypto';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { call, createApiKey, createOrganization, suiteEnv } from '@agentwatch/testing';
import { scoringApiConfigFromEnv } from '../../apps/scoring-api/src/config';
import { startScoringApi } from '../../apps/scoring-api/src/main';
import { createTenantDatabase, publishRoutes, route, sql, TenantDatabase } from '../tenant-fixture';

type Row = Record<string, unknown>;

describe('scoring API: scores and policies live in the database the route names', () => {
  const env = suiteEnv('e2e-cells-scoring', { SCORING_API_PORT: '0', HOST: '127.0.0.1' });
  let api: Awaited<ReturnType<typeof startScoringApi>>;
  let url: string;
  let db: TenantDatabase;
  const keys: Record<'tenant' | 'other' | 'pending', { orgId: string; key: string }> = {} as never;
  const scored = randomUUID();
  const unscored = randomUUID();

  const as = (who: keyof typeof keys, path: string, options: Parameters<typeof call>[1] = {}) =>
    call(`${url}${path}`, { ...options, headers: { 'x-api-key': keys[who].key } });

  beforeAll(async () => {
    api = await startScoringApi(scoringApiConfigFromEnv(env));
    url = api.url.replace('[::1]', '127.0.0.1');
    for (const who of ['tenant', 'other', 'pending'] as const) {
      const { orgId } = await createOrganization(`cells scoring ${who}`, env);
      keys[who] = { orgId, key: await createApiKey(orgId, env) };
    }
    db = await createTenantDatabase(env);
    const orgId = keys.tenant.orgId;
    const at = new Date(Date.now() - 600_000).toISOString();
    for (const id of [scored, unscored]) {
      await sql(
        db.adminUrl,
        `INSERT INTO events (org_id, id, action_type, tool_name, decision, timestamp, received_at)
           VALUES ($1, $2, 'FILE_READ', 'cat', 'allow', $3, $3)`,
        [orgId, id, at],
      );
    }
    await sql(
      db.adminUrl,
      `WITH verdict AS (
         INSERT INTO score_verdicts (org_id, id, violations, compliance_refs, mitigations, score_components,
                                     behavioral_flags, score_decomposition)
           VALUES ($1, $4, '[]', '[]', '[]', '[]', '[]', '{}'))
       INSERT INTO event_scores (org_id, event_id, status, score, risk_level, reasoning, verdict_id, scoring_source,
         llm_fallback, cache_hit, confidence, scorer_version, policy_version, fingerprint, action, event_timestamp,
         scored_at)
       VALUES ($1, $2, 'scored', 80, 'high', 'read a secret', $4, 'rules', false, false, 0.9, 'test', 1, 'fp',
         'FILE_READ', $3, $3)`,
      [orgId, scored, at, randomUUID()],
    );
    await publishRoutes(env, [
      route({ org_id: orgId, database: db.database, schema_version: db.schemaVersion }),
      route({ org_id: keys.pending.orgId, state: 'provisioning', schema_version: null }),
    ]);
  });

  afterAll(async () => {
    await api?.app.close();
    await db?.drop();
  });

  it("reads the tenant's scores from its cell's database with the tenant's API key; another key gets 404", async () => {
    expect(await as('tenant', `/scores/event/${scored}`)).toMatchObject({
      status: 200,
      body: { event_id: scored, status: 'scored', score: 80, risk_level: 'high' },
    });
    // Known in the tenant database, not scored yet.
    expect(await as('tenant', `/scores/event/${unscored}`)).toMatchObject({ status: 200, body: { status: 'pending' } });
    const list = await as('tenant', `/scores/${keys.tenant.orgId}`);
    expect(list).toMatchObject({ status: 200, body: { total: 1 } });
    expect((list.body.scores as Row[]).map((s) => s.event_id)).toEqual([scored]);

    expect((await as('other', `/scores/event/${scored}`)).status).toBe(404);
    expect((await as('other', `/scores/event/${unscored}`)).status).toBe(404);
    expect((await as('other', `/scores/${keys.other.orgId}`)).body).toMatchObject({ total: 0 });
  });

  it("writes the tenant's policy versions into its own database, none into the shared one", async () => {
    const policy = { blocked_actions: ['network:evil.example:connect'] };
    const created = await as('tenant', `/policies/${keys.tenant.orgId}`, { method: 'POST', body: policy });
    expect(created).toMatchObject({ status: 201, body: { version: 1, policies: policy } });
    expect(await as('tenant', `/policies/${keys.tenant.orgId}`)).toMatchObject({ status: 200, body: { version: 1 } });

    const count = `SELECT (SELECT count(*) FROM scoring_policies WHERE org_id = $1)::int AS current,
                          (SELECT count(*) FROM scoring_policy_versions WHERE org_id = $1)::int AS versions`;
    expect(await sql(db.adminUrl, count, [keys.tenant.orgId])).toEqual([{ current: 1, versions: 1 }]);
    expect(await sql(databaseConfigFromEnv(env).adminUrl, count, [keys.tenant.orgId])).toEqual([
      { current: 0, versions: 0 },
    ]);
    expect((await as('other', `/policies/${keys.other.orgId}`)).status).toBe(404);
  });

  it('answers 503 for reads and policy writes while the route is not migrated', async () => {
    const pending = keys.pending.orgId;
    for (const answer of [
      await as('pending', `/scores/event/${randomUUID()}`),
      await as('pending', `/scores/${pending}`),
      await as('pending', `/policies/${pending}`),
      await as('pending', `/policies/${pending}`, { method: 'POST', body: { blocked_actions: [] } }),
    ]) {
      expect(answer).toMatchObject({ status: 503, body: { error: expect.stringContaining('not ready') } });
    }
  });
});
