import { randomBytes } from 'node:crypto';
import { ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { DatabaseConfig, ownerDataSource } from '@agentwatch/db';
import { createKafka, EventPublisher, KafkaSettings } from '@agentwatch/kafka';
import { Cell, createAndMigrate, serverOf } from '@agentwatch/tenancy';
import { v7 as uuidv7 } from 'uuid';
import { BenchOrganization } from './organizations';

export interface BenchTenant {
  orgId: string;
  cell: Cell;
  database: string;
}

/**
 * Makes some of the bench's organizations provisioned tenants, round-robin over `cells`, as the
 * control plane would have left them: a database of the product schema on the cell, a data key in the
 * directory, and an active route on the routes topic. Their identity rows stay where
 * createBenchOrganizations put them (the shared database), as a provisioned tenant's do.
 */
export async function provisionBenchTenants(
  database: DatabaseConfig,
  kafka: KafkaSettings,
  organizations: BenchOrganization[],
  cells: Cell[],
): Promise<BenchTenant[]> {
  const tenants = organizations.map((o, i) => ({
    orgId: o.orgId,
    cell: cells[i % cells.length],
    database: `tenant_bench_${i}`,
  }));
  const routes: RouteChangedV1[] = [];
  for (const tenant of tenants) {
    const schemaVersion = await createAndMigrate(tenant.cell, tenant.database, database.rolePassword);
    routes.push({
      org_id: tenant.orgId,
      slug: tenant.database.slice('tenant_'.length),
      state: 'active',
      cell: tenant.cell.id,
      region: tenant.cell.region,
      server: serverOf(tenant.cell),
      database: tenant.database,
      schema_version: schemaVersion,
      at: new Date().toISOString(),
    });
  }
  const owner = await ownerDataSource(database).initialize();
  try {
    for (const tenant of tenants) {
      await owner.query('INSERT INTO tenancy_data_keys (org_id, key) VALUES ($1, $2)', [tenant.orgId, randomBytes(32)]);
    }
  } finally {
    await owner.destroy();
  }
  const publisher = new EventPublisher(createKafka(kafka), kafka);
  await publisher.onModuleInit();
  try {
    await publisher.publish(
      TOPICS.tenancyRoutes.name,
      routes.map((payload) =>
        toWire({
          id: uuidv7(),
          type: ROUTE_CHANGED_TYPE,
          orgId: payload.org_id,
          time: payload.at,
          key: payload.org_id,
          payload,
        }),
      ),
    );
  } finally {
    await publisher.onApplicationShutdown();
  }
  return tenants;
}
