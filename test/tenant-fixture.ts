import { randomUUID } from 'node:crypto';
import { ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { bootstrapDatabase, DatabaseConfig, databaseConfigFromEnv, dropTestDatabase } from '@agentwatch/db';
import { createKafka, EventPublisher, ensureTopics, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { Client } from 'pg';

/** The second cell's server that `npm test` starts (scripts/cell-server.mjs). */
export const CELL_2_SERVER = '127.0.0.1:5433';

export async function sql<T = Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface TenantDatabase {
  server: string;
  database: string;
  /** A superuser URL of the tenant database (the test reads and writes rows behind the apps' backs). */
  adminUrl: string;
  schemaVersion: string;
  drop(): Promise<void>;
}

/**
 * A tenant database on the second cell, as the control plane makes one: the product roles, the
 * product schema only, the grants the apps' roles get.
 */
export async function createTenantDatabase(env: NodeJS.ProcessEnv): Promise<TenantDatabase> {
  const database = `agentwatch_test_tenant_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const adminUrl = `postgres://postgres@${CELL_2_SERVER}/${database}`;
  const config: DatabaseConfig = databaseConfigFromEnv({ ...env, DATABASE_URL: adminUrl });
  await bootstrapDatabase(config, 'product');
  const [row] = await sql<{ version: string }>(adminUrl, 'SELECT max("timestamp")::text AS version FROM migrations');
  return {
    server: CELL_2_SERVER,
    database,
    adminUrl,
    schemaVersion: row.version,
    drop: () => dropTestDatabase(adminUrl, database),
  };
}

export const route = (overrides: Partial<RouteChangedV1> & Pick<RouteChangedV1, 'org_id'>): RouteChangedV1 => ({
  slug: `t${overrides.org_id.slice(0, 8)}`,
  state: 'active',
  cell: 'cell-2',
  region: 'eu-2',
  server: CELL_2_SERVER,
  database: 'tenant_unused',
  schema_version: null,
  at: new Date().toISOString(),
  ...overrides,
});

/** Publishes routes on the suite's `tenancy.routes.v1`, as the control plane's outbox relay does. */
export async function publishRoutes(env: NodeJS.ProcessEnv, routes: RouteChangedV1[]): Promise<void> {
  const settings = kafkaSettingsFromEnv('test-routes', env);
  const kafka = createKafka(settings);
  await ensureTopics(kafka, settings, [TOPICS.tenancyRoutes]);
  const publisher = new EventPublisher(kafka, settings);
  await publisher.onModuleInit();
  try {
    await publisher.publish(
      TOPICS.tenancyRoutes.name,
      routes.map((r) =>
        toWire({ id: randomUUID(), type: ROUTE_CHANGED_TYPE, orgId: r.org_id, time: r.at, key: r.org_id, payload: r }),
      ),
    );
  } finally {
    await publisher.onApplicationShutdown();
  }
}

export interface RawRecord {
  orgId: string;
  value: Buffer;
  headers: Record<string, string | undefined>;
}

/** Records of one of the suite's topics as stored (value bytes, headers), from the beginning until `enough` holds. */
export async function readRawRecords(
  env: NodeJS.ProcessEnv,
  topic: string,
  enough: (records: RawRecord[]) => boolean,
): Promise<RawRecord[]> {
  const settings = kafkaSettingsFromEnv('test-raw-reader', env);
  const consumer = createKafka(settings).consumer({ groupId: `${settings.prefix}raw-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: settings.prefix + topic, fromBeginning: true });
  const records: RawRecord[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ message }) => {
            const headers = Object.fromEntries(
              Object.entries(message.headers ?? {}).map(([name, value]) => [name, value?.toString()]),
            );
            records.push({ orgId: headers.org_id ?? '', value: message.value ?? Buffer.alloc(0), headers });
            if (enough(records)) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return records;
}
