import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../libs/testing/src/ports';
import { infrastructureEnv } from '../../libs/testing/src/test-env';

const root = path.resolve(__dirname, '..', '..');
const APPS = [
  'cloud-api',
  'projector',
  'scoring-api',
  'scoring-worker',
  'control-plane',
  'product-console',
  'operator-console',
] as const;
type App = (typeof APPS)[number];

/**
 * Playwright's global setup: the built apps as their own processes, exactly as `npm start` runs them,
 * on free ports of this machine, in a database and a topic prefix of their own; both consoles
 * with their development identity providers. Every product variable is set here, whatever the shell
 * exported. What the tests need (URLs, the seeded organization and its deploy token) reaches them
 * through process.env; the returned function stops the stack.
 */
export default async function startBrowserStack(): Promise<() => Promise<void>> {
  if (!process.env.DATABASE_URL || !process.env.KAFKA_TOPIC_PREFIX)
    throw new Error('the browser tests run inside `npm test`, which gives them a database and a topic prefix');
  const ports = Object.fromEntries(await Promise.all(APPS.map(async (app) => [app, await freePort()]))) as Record<
    App,
    number
  >;
  const url = (app: App) => `http://127.0.0.1:${ports[app]}`;
  // A database of its own: the control plane takes the timers and outbox rows of every control plane
  // sharing its database, and the tenants the tests provision are dropped with it. (Playwright loads
  // TypeScript without parameter decorators, so the harness reaches the server code only through the
  // built CLI.)
  const databaseUrl = new URL(process.env.DATABASE_URL);
  databaseUrl.pathname = `${databaseUrl.pathname}_browser`;
  const local = path.join(root, '.local', 'playwright', process.env.KAFKA_TOPIC_PREFIX.replace(/\W/g, ''));
  const env: NodeJS.ProcessEnv = {
    ...infrastructureEnv(),
    DATABASE_URL: databaseUrl.toString(),
    KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX}browser.`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_DEV_ISSUER_DIR: path.join(local, 'dev-issuer'),
    OPERATOR_DEV_ISSUER_DIR: path.join(local, 'dev-operator-issuer'),
    CLOUD_API_PORT: String(ports['cloud-api']),
    PROJECTOR_PORT: String(ports.projector),
    SCORING_API_PORT: String(ports['scoring-api']),
    SCORING_WORKER_PORT: String(ports['scoring-worker']),
    CONTROL_PLANE_PORT: String(ports['control-plane']),
    CONSOLE_PORT: String(ports['product-console']),
    OPERATOR_CONSOLE_PORT: String(ports['operator-console']),
    CLOUD_API_URL: url('cloud-api'),
    SCORING_API_URL: url('scoring-api'),
    CONTROL_PLANE_URL: url('control-plane'),
  };
  cli(['setup'], env);
  const seeded = JSON.parse(cli(['create-org', '--name', 'Browser test org'], env)) as {
    organization: { id: string; name: string };
    deploy_token: { token: string };
  };
  env.CONSOLE_DEV_ORGANIZATIONS = JSON.stringify([seeded.organization]);

  const children = APPS.map((app) => spawnApp(app, env));
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await dropTenantDatabases(databaseUrl);
    cli(['teardown-test-run', '--prefix', env.KAFKA_TOPIC_PREFIX!], env);
  };
  try {
    await Promise.all(APPS.map((app, index) => waitReady(app, url(app), children[index])));
  } catch (error) {
    await stop();
    throw error;
  }
  Object.assign(process.env, {
    BROWSER_PRODUCT_CONSOLE: url('product-console'),
    BROWSER_OPERATOR_CONSOLE: url('operator-console'),
    BROWSER_CLOUD_API: url('cloud-api'),
    BROWSER_ORG_ID: seeded.organization.id,
    BROWSER_ORG_NAME: seeded.organization.name,
    BROWSER_DEPLOY_TOKEN: seeded.deploy_token.token,
  });
  return stop;
}

/** The tenant databases the tests' flows created, on the run's server (the one cell of the stack). */
async function dropTenantDatabases(databaseUrl: URL) {
  const client = new Client({ connectionString: databaseUrl.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ slug: string }>('SELECT DISTINCT slug FROM tenancy_flows');
    for (const { slug } of rows) await client.query(`DROP DATABASE IF EXISTS "tenant_${slug}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, [path.join(root, 'dist/apps/cli/src/main.js'), ...args], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`agentwatch ${args[0]} failed:\n${result.stderr}`);
  return result.stdout;
}

function spawnApp(app: App, env: NodeJS.ProcessEnv): ChildProcess & { log: string[] } {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'apps', app, 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { log: string[] };
  child.log = [];
  const keep = (chunk: Buffer) => child.log.push(String(chunk));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

async function waitReady(app: App, base: string, child: ChildProcess & { log: string[] }) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app} exited (${child.exitCode}):\n${child.log.join('')}`);
    const ready = await fetch(`${base}/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app} was not ready on ${base}/ready within 90 s:\n${child.log.join('')}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
