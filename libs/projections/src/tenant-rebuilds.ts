import { placementOf } from '@agentwatch/cells';
import { RouteChangedV1, routeChangedV1, TOPICS } from '@agentwatch/contracts';
import { ownerDataSource, PRODUCT_SCHEMA_VERSION, ROLE_NAMES } from '@agentwatch/db';
import { createKafka, ensureTopics, TopicTails } from '@agentwatch/kafka';
import { DataSource } from 'typeorm';
import { ProjectionStoreSettings } from './projector.module';

/**
 * The owner's URL of every tenant database the routes name as routable now (active, migrated to this
 * build's schema), one per database: where a rebuild builds and swaps in tenants' read models. A
 * tenant that becomes routable during the rebuild has no rebuild schema: its records stop the
 * rebuild (retried until it is run again), so a replay runs while no tenant is being provisioned.
 */
export async function tenantOwnerUrls(config: ProjectionStoreSettings): Promise<string[]> {
  const kafka = createKafka(config.kafka);
  await ensureTopics(kafka, config.kafka, [TOPICS.tenancyRoutes]);
  const routes = new Map<string, RouteChangedV1>();
  const tail = new TopicTails(kafka, config.kafka).tail({
    topic: TOPICS.tenancyRoutes.name,
    schema: routeChangedV1,
    onRecord: ({ payload }) => routes.set(payload.org_id, payload),
  });
  await tail.start();
  await tail.stop();
  const databases = new Map<string, string>();
  for (const route of routes.values()) {
    const placement = placementOf(route, PRODUCT_SCHEMA_VERSION);
    if (placement.kind !== 'tenant') continue;
    const url = new URL(`postgres://${placement.server}/${encodeURIComponent(placement.database)}`);
    url.username = ROLE_NAMES.owner;
    url.password = config.database.rolePassword ?? '';
    databases.set(`${placement.server}/${placement.database}`, url.toString());
  }
  return [...databases.values()];
}

/**
 * Runs `work` with an owner's connection to each of these tenant databases, closed when it is done.
 * A rebuild holds them only to prepare, swap in or drop its schemas, not while it consumes: held
 * idle meanwhile, they would take one connection per tenant database on each server, beside the
 * consumers' own pools and the live apps', from the server's `max_connections`.
 */
export async function withTenantOwners<R>(
  config: ProjectionStoreSettings,
  urls: string[],
  work: (tenants: DataSource[]) => Promise<R>,
): Promise<R> {
  const tenants: DataSource[] = [];
  try {
    for (const ownerUrl of urls) {
      tenants.push(await ownerDataSource({ ...config.database, ownerUrl }, 'product').initialize());
    }
    return await work(tenants);
  } finally {
    for (const tenant of tenants) await tenant.destroy();
  }
}
