import { Client } from 'pg';
import { scoringApiConfigFromEnv } from '../../apps/scoring-api/src/config';
import { startScoringApi } from '../../apps/scoring-api/src/main';
import { call, eventually, startTcpProxy, suiteEnv, TcpProxy } from '../../libs/testing/src';
import { isolatedDatabase } from '../../libs/testing/src/control-plane-stack';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Body = Record<string, any>;

// The scoring API on a database and a broker path of its own: the test renames and locks tables of
// that database and cuts that path, which no other suite uses.
describe('scoring API health: each entry checks its own component; readiness includes Kafka', () => {
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let broker: TcpProxy;
  let scoring: Awaited<ReturnType<typeof startScoringApi>>;
  let url: string;
  let owner: Client;

  const detailed = () => call<Body>(`${url}/health/detailed`);

  beforeAll(async () => {
    db = await isolatedDatabase('scoringhealth');
    const [host, port] = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0].split(':');
    broker = await startTcpProxy({ host, port: Number(port) });
    const env = suiteEnv('e2e-scoring-health', {
      ...db.env,
      KAFKA_BROKERS: broker.address,
      SCORING_API_PORT: '0',
      HOST: '127.0.0.1',
    });
    scoring = await startScoringApi(scoringApiConfigFromEnv(env));
    url = scoring.url.replace('[::1]', '127.0.0.1');
    owner = new Client({ connectionString: db.env.DATABASE_URL });
    await owner.connect();
  });

  afterAll(async () => {
    await owner?.end();
    await scoring?.app.close();
    await broker?.close();
    await db?.drop();
  });

  it('reports every component up, and says in the OpenAPI document what each entry checks', async () => {
    const health = await detailed();
    expect(health).toMatchObject({
      status: 200,
      body: {
        status: 'ok',
        relational_db: { status: 'ok', error: null },
        cache: { status: 'ok', error: null },
        graph_db: { status: 'ok', error: null },
        llm_service: { status: 'not_configured' },
      },
    });
    const openapi = (await call<Body>(`${url}/openapi.json`)).body;
    const description: string = openapi.paths['/health/detailed'].get.responses['200'].description;
    expect(description).toContain('`cache`: the model-answer cache, the table `scoring_llm_cache`');
    expect(description).toContain('`graph_db`: the session graph store, the table `scoring_graph_nodes`');
    expect(await call<Body>(`${url}/ready`)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { kafka: { status: 'up' }, postgres: { status: 'up' } } },
    });
  });

  it('reports the cache alone unavailable, and the service degraded, when the cache store cannot be read', async () => {
    await owner.query('ALTER TABLE scoring_llm_cache RENAME TO scoring_llm_cache_away');
    try {
      const health = await detailed();
      expect(health).toMatchObject({
        status: 200,
        body: {
          status: 'degraded',
          relational_db: { status: 'ok' },
          cache: { status: 'unavailable', error: expect.stringContaining('scoring_llm_cache') },
          graph_db: { status: 'ok' },
        },
      });
    } finally {
      await owner.query('ALTER TABLE scoring_llm_cache_away RENAME TO scoring_llm_cache');
    }
    expect((await detailed()).body.status).toBe('ok');
  });

  it('reports the graph store alone unavailable, and the service unhealthy, while it is locked', async () => {
    const locker = new Client({ connectionString: db.env.DATABASE_URL });
    await locker.connect();
    try {
      // What a rebuild of the scores projection holds: the worker could not read the graph either.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE scoring_graph_nodes IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const health = await detailed();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(health).toMatchObject({
        status: 503,
        body: {
          status: 'unhealthy',
          relational_db: { status: 'ok' },
          cache: { status: 'ok' },
          graph_db: { status: 'unavailable', error: expect.any(String) },
        },
      });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect((await detailed()).body.status).toBe('ok');
  });

  it('answers /ready with 503 while the broker cannot be reached, and 200 again once it can', async () => {
    broker.cut();
    const ready = await eventually(
      () => call<Body>(`${url}/ready`),
      (answer) => answer.status === 503,
      { timeoutMs: 20_000, what: '/ready refusing without Kafka' },
    );
    expect(ready.body).toMatchObject({
      status: 'not_ready',
      checks: { kafka: { status: 'down', error: expect.any(String) }, postgres: { status: 'up' } },
    });
    broker.restore();
    await eventually(
      () => call<Body>(`${url}/ready`),
      (answer) => answer.status === 200,
      { timeoutMs: 20_000, what: '/ready once Kafka is back' },
    );
  });
});
