import { bootstrapDatabase, databaseConfigFromEnv, dropTestDatabase } from '@agentwatch/db';
import { Client } from 'pg';
import { controlPlaneConfigFromEnv } from '../../../apps/control-plane/src/config';
import { startControlPlane } from '../../../apps/control-plane/src/main';
import { FakeIdentityProvider } from './fake-idp';
import { suiteEnv } from './stack';
import { infrastructureEnv } from './test-env';

export const OPERATOR_ISSUER = 'https://operators.idp.test';
export const OPERATOR_CLIENT = 'agentwatch-operator';
export const PRODUCT_CLIENT = 'agentwatch-product';

export interface Operators {
  idp: FakeIdentityProvider;
  alice: string;
  bob: string;
  viewer: string;
  /** A token of the product client, signed by the same provider: must not verify here. */
  product: string;
  env: Record<string, string>;
}

/** The operator identity provider (faked over real HTTP) and tokens for two operators and a viewer. */
export async function startOperators(): Promise<Operators> {
  const idp = await FakeIdentityProvider.start({ issuer: OPERATOR_ISSUER, audience: OPERATOR_CLIENT });
  const token = (sub: string, role: string, client = OPERATOR_CLIENT) =>
    idp.token({ sub, role, azp: client }, { audience: client });
  return {
    idp,
    alice: await token('alice@ops.test', 'operator'),
    bob: await token('bob@ops.test', 'operator'),
    viewer: await token('vera@ops.test', 'viewer'),
    product: await token('alice@ops.test', 'operator', PRODUCT_CLIENT),
    env: {
      OPERATOR_JWKS_URL: idp.jwksUrl,
      OPERATOR_JWT_ISSUER: OPERATOR_ISSUER,
      OPERATOR_CLIENT_ID: OPERATOR_CLIENT,
      OPERATOR_ROLE_CLAIM: 'role',
    },
  };
}

export interface RunningControlPlane {
  url: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/** The control plane in-process on an ephemeral port. */
export async function startControlPlaneApp(env: NodeJS.ProcessEnv): Promise<RunningControlPlane> {
  const { app, url } = await startControlPlane(
    controlPlaneConfigFromEnv({ CONTROL_PLANE_PORT: '0', HOST: '127.0.0.1', ...env }),
  );
  return { url: url.replace('[::1]', '127.0.0.1'), env, stop: () => app.close() };
}

/** The second cell's server (`node scripts/cell-server.mjs`, started by `npm test`), a superuser URL. */
export const CELL_2_URL = `postgres://postgres@127.0.0.1:${process.env.CELL_SERVER_PORT ?? 5433}/postgres`;

export type TestCell = 'local-1' | 'cell-2';

/** The server of a test cell, as a superuser URL of its `postgres` database. */
function serverUrl(env: NodeJS.ProcessEnv, cell: TestCell): string {
  if (cell === 'cell-2') return CELL_2_URL;
  const url = new URL(env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
  url.pathname = '/postgres';
  return url.toString();
}

/**
 * The cells of every test control plane: `local-1` (region `local`) on the suite's DATABASE_URL server
 * and `cell-2` (region `eu-2`) on the second server.
 */
export function testCells(env: NodeJS.ProcessEnv): string {
  return JSON.stringify([
    { id: 'local-1', region: 'local', capacity: 1000, admin_url: serverUrl(env, 'local-1') },
    { id: 'cell-2', region: 'eu-2', capacity: 1000, admin_url: serverUrl(env, 'cell-2') },
  ]);
}

/** Every variable a test control plane relies on; `extra` (the suite's database, its cells) wins. */
export function controlPlaneEnv(suite: string, operators: Operators, extra: Record<string, string> = {}) {
  return suiteEnv(suite, {
    CONTROL_CELLS: testCells({ ...infrastructureEnv(), ...extra }),
    CONTROL_RETRY_BASE_MS: '200',
    CONTROL_RETRY_MAX_MS: '1000',
    CONTROL_POLL_MS: '100',
    CONTROL_SSE_HEARTBEAT_MS: '1000',
    ...operators.env,
    ...extra,
  });
}

/** A slug unique to this run, so the tenant databases of parallel or repeated runs never collide. */
export function uniqueSlug(label: string): string {
  const run = (process.env.AGENTWATCH_TEST_RUN ?? Date.now().toString(36)).toLowerCase();
  return `${label}-${run}-${Math.random().toString(36).slice(2, 7)}`;
}

export async function tenantDatabaseExists(
  env: NodeJS.ProcessEnv,
  database: string,
  cell: TestCell = 'local-1',
): Promise<boolean> {
  return withServer(
    env,
    async (c) => ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount ?? 0) > 0,
    cell,
  );
}

/** Drops a tenant database a test created (only `tenant_…` names), on whichever test cell holds it. */
export async function dropTenantDatabase(env: NodeJS.ProcessEnv, database: string): Promise<void> {
  if (!database.startsWith('tenant_')) throw new Error(`refusing to drop ${database}`);
  for (const cell of ['local-1', 'cell-2'] as const) {
    await withServer(env, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`), cell);
  }
}

/** Runs SQL as the superuser: on the suite's database (null), or on a tenant database of a test cell. */
export async function queryDatabase<T = Record<string, unknown>>(
  env: NodeJS.ProcessEnv,
  database: string | null,
  sql: string,
  params: unknown[] = [],
  cell: TestCell = 'local-1',
): Promise<T[]> {
  const url = new URL(
    database ? serverUrl(env, cell) : (env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch'),
  );
  if (database) url.pathname = `/${database}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function withServer<T>(env: NodeJS.ProcessEnv, fn: (c: Client) => Promise<T>, cell: TestCell): Promise<T> {
  const client = new Client({ connectionString: serverUrl(env, cell) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of the suite's own. Control planes sharing a database are replicas of one deployment
 * (they take each other's timers and outbox rows), so suites with different cells or topic prefixes
 * each get one; the name keeps the test-run prefix, so a run's stale leftovers are cleaned up.
 */
export async function isolatedDatabase(suite: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
  const run = (process.env.AGENTWATCH_TEST_RUN ?? Date.now().toString(36)).toLowerCase();
  base.pathname = `/agentwatch_test_${run}_${suite.replace(/[^a-z0-9]/g, '')}`;
  const env = { DATABASE_URL: base.toString() };
  const config = databaseConfigFromEnv({ ...infrastructureEnv(), ...env });
  await bootstrapDatabase(config);
  return {
    env,
    async drop() {
      // Tenant databases the suite's flows created and did not release (a failed test) go first.
      const flows = await queryDatabase<{ slug: string }>(env, null, 'SELECT DISTINCT slug FROM tenancy_flows');
      for (const { slug } of flows) await dropTenantDatabase(env, `tenant_${slug}`);
      await dropTestDatabase(config.adminUrl, config.database);
    },
  };
}
