import { call, RunningScoringStack, spawnApp, startScoringStack, suiteEnv } from '../../libs/testing/src';
import {
  controlPlaneEnv,
  Operators,
  RunningControlPlane,
  startControlPlaneApp,
  startOperators,
} from '../../libs/testing/src/control-plane-stack';

// Every HTTP-serving app boots through the one bootstrap: each answers /health, /ready (its
// Postgres and Kafka) and /metrics (Prometheus text).
describe('every app answers /health, /ready and /metrics', () => {
  let stack: RunningScoringStack;
  let operators: Operators;
  let controlPlane: RunningControlPlane;

  beforeAll(async () => {
    stack = await startScoringStack('e2e-every-app');
    operators = await startOperators();
    controlPlane = await startControlPlaneApp(controlPlaneEnv('e2e-every-app-cp', operators));
  });

  afterAll(async () => {
    await controlPlane?.stop();
    await stack?.stop();
    await operators?.idp.stop();
  });

  const apps = () => ({
    'cloud-api': stack.apiUrl,
    projector: stack.projectorUrl.replace('[::1]', '127.0.0.1'),
    'scoring-api': stack.scoringUrl,
    'scoring-worker': stack.workerUrl,
    'control-plane': controlPlane.url,
  });

  it.each(['cloud-api', 'projector', 'scoring-api', 'scoring-worker', 'control-plane'] as const)('%s', async (app) => {
    const url = apps()[app];
    expect(await call(`${url}/health`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(`${url}/ready`)).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { kafka: { status: 'up' }, postgres: { status: 'up' } } },
    });
    const metrics = await call<string>(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});

describe('a built app with an invalid configuration', () => {
  it('exits 1 naming the variable and what it expected, on stderr', async () => {
    const app = spawnApp('cloud-api', suiteEnv('e2e-bad-config', { CLOUD_API_PORT: 'abc' }));
    const stderr: string[] = [];
    app.child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
    expect(await app.exited).toBe(1);
    expect(stderr.join('')).toContain('CLOUD_API_PORT: expected an integer port 0–65535, got "abc"');
  });
});
