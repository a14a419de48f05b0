import { randomUUID } from 'node:crypto';
import { ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import {
  bootstrapDatabase,
  DatabaseConfig,
  databaseConfigFromEnv,
  dropTestDatabase,
  PRODUCT_SCHEMA_VERSION,
} from '@agentwatch/db';
import { createKafka, EventPublisher, ensureTopics, KafkaSettings, TopicTails } from '@agentwatch/kafka';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { RouteDirectory } from '../route-directory';
import { TenantDatabases } from '../tenant-databases';

// Test fixtures for the data plane's write path: tenant databases made as the control plane makes
// them (the product schema, the product roles) on the test run's server and on the second cell's,
// and routes published on the routes topic as the control plane's outbox publishes them.

/** The second cell's server (scripts/cell-server.mjs), a superuser URL. */
export const CELL_SERVER_ADMIN_URL = `postgres://postgres@127.0.0.1:${process.env.CELL_SERVER_PORT ?? 5433}/postgres`;

export interface TestDatabase {
  config: DatabaseConfig;
  /** host:port, as a route names it. */
  server: string;
  database: string;
  /** Runs SQL as the server's superuser in that database (what the test checks, outside any role). */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

async function asAdmin<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}

/** The test run's own database (DATABASE_URL): the shared database. */
export function sharedTestDatabase(env: NodeJS.ProcessEnv): TestDatabase {
  const config = databaseConfigFromEnv(env);
  return {
    config,
    server: new URL(config.adminUrl).host,
    database: config.database,
    query: (sql, params) => asAdmin(config.adminUrl, sql, params),
    drop: async () => {},
  };
}

/**
 * Suites running beside each other bootstrap databases on the same servers, and two ALTER ROLEs of
 * the same role at once fail one of them ("tuple concurrently updated"): tried again.
 */
async function retryingConcurrentUpdates<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!/tuple concurrently updated/.test((error as Error).message) || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

/** A tenant database `<run's database>_<suffix>` on the server of `serverAdminUrl`, migrated to the product schema. */
export async function tenantTestDatabase(
  env: NodeJS.ProcessEnv,
  serverAdminUrl: string,
  suffix: string,
): Promise<TestDatabase> {
  const url = new URL(serverAdminUrl);
  url.pathname = `/${`${databaseConfigFromEnv(env).database}_${suffix}`.slice(0, 63)}`;
  const config = databaseConfigFromEnv({ ...env, DATABASE_URL: url.toString() });
  await dropTestDatabase(config.adminUrl, config.database);
  await retryingConcurrentUpdates(() => bootstrapDatabase(config, 'product'));
  return {
    config,
    server: url.host,
    database: config.database,
    query: (sql, params) => asAdmin(config.adminUrl, sql, params),
    drop: () => dropTestDatabase(config.adminUrl, config.database),
  };
}

/** What the control plane publishes: `provisioning` (not migrated), `active` (migrated), `deprovisioned`. */
export function route(
  orgId: string,
  target: Pick<TestDatabase, 'server' | 'database'>,
  state: RouteChangedV1['state'],
): RouteChangedV1 {
  return {
    org_id: orgId,
    slug: `t-${orgId.slice(0, 8)}`,
    state,
    cell: target.server,
    region: 'local',
    server: target.server,
    database: target.database,
    schema_version: state === 'active' ? PRODUCT_SCHEMA_VERSION : null,
    at: new Date().toISOString(),
  };
}

/** The data plane's route directory and tenant pools over the test run's topics, as the apps build them. */
export class RoutedDataPlane {
  readonly publisher: EventPublisher;
  readonly directory: RouteDirectory;
  readonly databases: TenantDatabases;

  constructor(
    private readonly kafka: ReturnType<typeof createKafka>,
    private readonly settings: KafkaSettings,
    rolePassword: string | null,
  ) {
    this.publisher = new EventPublisher(kafka, settings);
    this.directory = new RouteDirectory(new TopicTails(kafka, settings));
    this.databases = new TenantDatabases(
      { role: 'projector', rolePassword, poolSize: 2, applicationName: 'cells-test' },
      this.directory,
    );
  }

  async start(): Promise<void> {
    await ensureTopics(this.kafka, this.settings, [TOPICS.tenancyRoutes]);
    await this.publisher.onModuleInit();
    await this.directory.onApplicationBootstrap();
  }

  async stop(): Promise<void> {
    await this.databases.onApplicationShutdown();
    await this.directory.onModuleDestroy();
    await this.publisher.onApplicationShutdown();
  }

  async publishRoute(payload: RouteChangedV1): Promise<void> {
    await this.publisher.publish(TOPICS.tenancyRoutes.name, [
      toWire({
        id: randomUUID(),
        type: ROUTE_CHANGED_TYPE,
        orgId: payload.org_id,
        time: payload.at,
        key: payload.org_id,
        payload,
      }),
    ]);
  }
}

/** The shared database as the projector sees it: its own role. */
export const projectorDataSource = (env: NodeJS.ProcessEnv) =>
  new DataSource({ type: 'postgres', url: databaseConfigFromEnv(env).projectorUrl, extra: { max: 4 } }).initialize();
