import { databaseConfigFromEnv } from '@agentwatch/db';
import { AppProcess, call, createOrganization, eventually, freePort, spawnApp, suiteEnv } from '@agentwatch/testing';
import { Client } from 'pg';

const BURST = 6;

describe('ingest rate limit shared by two API processes', () => {
  // One request per second on average with a burst of BURST: a window of BURST seconds.
  const env = suiteEnv('e2e-rate-limit', {
    INGEST_RATE_LIMIT_RPS: '1',
    INGEST_RATE_LIMIT_BURST: String(BURST),
    HOST: '127.0.0.1',
  });
  const apps: AppProcess[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      apps.push(spawnApp('cloud-api', { ...env, CLOUD_API_PORT: String(port) }));
      urls.push(`http://127.0.0.1:${port}`);
    }
    for (const url of urls) {
      await eventually(
        () => call(`${url}/ready`).catch(() => ({ status: 0 })),
        (answer) => answer.status === 200,
        { what: `${url} ready`, timeoutMs: 60_000 },
      );
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.kill()));
  });

  it('accepts at most the limit across both, and every 429 says when to retry', async () => {
    const org = await createOrganization('rate limited', env);
    const other = await createOrganization('not limited', env);
    const body = { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString() }] };
    const answers = await Promise.all(
      Array.from({ length: 4 * BURST }, (_, i) =>
        call(`${urls[i % 2]}/v1/events/ingest`, { method: 'POST', token: org.token, body }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted.length + refused.length).toBe(answers.length);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(BURST);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) {
      expect(answer.body).toEqual({ error: 'Rate limit exceeded' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
    }
    for (const answer of accepted) {
      expect(answer.headers.get('ratelimit-limit')).toBe(String(BURST));
      expect(Number(answer.headers.get('ratelimit-remaining'))).toBeLessThan(BURST);
      expect(answer.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
    }
    // The limit is per organization and per route.
    expect((await call(`${urls[0]}/v1/events/ingest`, { method: 'POST', token: other.token, body })).status).toBe(200);
    const sessions = await call(`${urls[1]}/v1/sessions/ingest`, {
      method: 'POST',
      token: org.token,
      body: {
        session_id: '3f2c1b0a-9e8d-5c7b-a6f5-e4d3c2b1a098',
        state: 'active',
        timestamp: new Date().toISOString(),
      },
    });
    expect(sessions.status).toBe(200);
  });

  // Each request upserts its counter: an unlogged table writes no WAL, so no commit waits for a flush.
  // After a database crash the counters start from zero, which only opens a fresh window.
  it('keeps its counters in an unlogged table', async () => {
    const client = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT relpersistence FROM pg_class WHERE oid = 'ingest_rate_limits'::regclass",
      );
      expect(rows).toEqual([{ relpersistence: 'u' }]);
    } finally {
      await client.end();
    }
  });
});
