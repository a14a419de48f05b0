import { randomUUID } from 'node:crypto';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { GroupCommittedRateLimiterPostgres } from './group-committed-rate-limiter';

const POINTS = 5;

type Outcome = { accepted: boolean; consumed: number; remaining: number; msBeforeNext: number };

async function consume(limiter: RateLimiterPostgres, key: string): Promise<Outcome> {
  try {
    const res = await limiter.consume(key);
    return {
      accepted: true,
      consumed: res.consumedPoints,
      remaining: res.remainingPoints,
      msBeforeNext: res.msBeforeNext,
    };
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    return {
      accepted: false,
      consumed: refusal.consumedPoints,
      remaining: refusal.remainingPoints,
      msBeforeNext: refusal.msBeforeNext,
    };
  }
}

/** Counts the statements sent through the pool (the store queries the pool itself); the real ones still run. */
function countStatements(pool: Pool): { count: () => number; restore: () => void } {
  let count = 0;
  const query = pool.query;
  const counting = function (this: Pool, ...args: unknown[]) {
    count++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  };
  (pool as unknown as { query: unknown }).query = counting;
  return { count: () => count, restore: () => ((pool as unknown as { query: unknown }).query = query) };
}

describe('ingest rate limit: concurrent requests upserted together in Postgres', () => {
  const config = databaseConfigFromEnv(process.env);
  let pool: Pool;

  beforeAll(() => {
    pool = new Pool({ connectionString: config.appUrl, max: 4 });
  });

  afterAll(async () => {
    await pool.end();
  });

  const limiterOf = (keyPrefix: string, duration = 60) =>
    new GroupCommittedRateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'ingest_rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      points: POINTS,
      duration,
      keyPrefix,
    });

  it('counts every request once, in arrival order, across keys, in fewer statements than requests', async () => {
    const prefix = `test-${randomUUID()}`;
    const limiter = limiterOf(prefix);
    const statements = countStatements(pool);
    const keys = ['a', 'b', 'a', 'c', 'a', 'b', 'a', 'a', 'a', 'b'];
    const outcomes = await Promise.all(keys.map((key) => consume(limiter, key)));
    statements.restore();

    // Each key's requests get 1, 2, 3, … in the order they were made, as one after another would.
    for (const key of new Set(keys)) {
      const mine = outcomes.filter((_, i) => keys[i] === key);
      expect(mine.map((o) => o.consumed)).toEqual(mine.map((_, n) => n + 1));
      expect(mine.map((o) => o.accepted)).toEqual(mine.map((_, n) => n + 1 <= POINTS));
      expect(mine.map((o) => o.remaining)).toEqual(mine.map((_, n) => Math.max(0, POINTS - n - 1)));
    }
    for (const o of outcomes) expect(o.msBeforeNext).toBeGreaterThan(55_000);
    expect(statements.count()).toBeLessThan(keys.length);

    const { rows } = await pool.query('SELECT key, points FROM ingest_rate_limits WHERE key LIKE $1 ORDER BY key', [
      `${prefix}:%`,
    ]);
    expect(rows).toEqual([
      { key: `${prefix}:a`, points: 6 },
      { key: `${prefix}:b`, points: 3 },
      { key: `${prefix}:c`, points: 1 },
    ]);
  });

  it('holds the limit across limiters sharing the table (two replicas), under concurrency', async () => {
    const prefix = `test-${randomUUID()}`;
    const replicas = [limiterOf(prefix), limiterOf(prefix)];
    const outcomes = await Promise.all(
      Array.from({ length: 4 * POINTS }, (_, i) => consume(replicas[i % 2], 'shared')),
    );
    expect(outcomes.filter((o) => o.accepted)).toHaveLength(POINTS);
    // Together the two counted each request exactly once: 1 … 20, whatever the interleaving.
    expect(outcomes.map((o) => o.consumed).sort((x, y) => x - y)).toEqual(outcomes.map((_, n) => n + 1));
  });

  it('starts a fresh window once the old one has ended', async () => {
    const prefix = `test-${randomUUID()}`;
    const limiter = limiterOf(prefix, 1);
    await Promise.all(Array.from({ length: POINTS + 2 }, () => consume(limiter, 'k')));
    expect((await consume(limiter, 'k')).accepted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const fresh = await Promise.all([consume(limiter, 'k'), consume(limiter, 'k')]);
    expect(fresh.map((o) => [o.accepted, o.consumed])).toEqual([
      [true, 1],
      [true, 2],
    ]);
  });

  it('gives a consumption that names its own window that window, in the same burst as the others', async () => {
    const limiter = limiterOf(`test-${randomUUID()}`);
    const [first, short, other] = await Promise.all([
      limiter.consume('long'),
      limiter.consume('short', 1, { customDuration: 2 }),
      limiter.consume('long'),
    ]);
    expect(short.msBeforeNext).toBeLessThanOrEqual(2_000);
    for (const res of [first, other]) expect(res.msBeforeNext).toBeGreaterThan(55_000);
    expect([first.consumedPoints, short.consumedPoints, other.consumedPoints]).toEqual([1, 1, 2]);
  });

  it('answers a refused statement with the error to every request of it', async () => {
    const limiter = new GroupCommittedRateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'no_such_table',
      tableCreated: true,
      clearExpiredByTimeout: false,
      points: POINTS,
      duration: 60,
      keyPrefix: `test-${randomUUID()}`,
    });
    const answers = await Promise.allSettled([limiter.consume('x'), limiter.consume('y'), limiter.consume('x')]);
    for (const answer of answers) {
      expect(answer.status).toBe('rejected');
      expect(String((answer as PromiseRejectedResult).reason)).toMatch(/no_such_table/);
    }
  });
});
