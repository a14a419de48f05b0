import { randomUUID } from 'node:crypto';
import { ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { PRODUCT_SCHEMA_VERSION } from '@agentwatch/db';
import {
  createKafka,
  deleteTopicsWithPrefix,
  EventPublisher,
  ensureTopics,
  kafkaSettingsFromEnv,
  TopicTails,
} from '@agentwatch/kafka';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { RouteDirectory } from './route-directory';

const routeOf = (orgId: string, overrides: Partial<RouteChangedV1> = {}): RouteChangedV1 => ({
  org_id: orgId,
  slug: `s${orgId.slice(0, 8)}`,
  state: 'active',
  cell: 'cell-2',
  region: 'eu-2',
  server: '127.0.0.1:5433',
  database: `tenant_${orgId.slice(0, 8)}`,
  schema_version: PRODUCT_SCHEMA_VERSION,
  at: new Date().toISOString(),
  ...overrides,
});

describe('RouteDirectory on tenancy.routes.v1', () => {
  const settings = kafkaSettingsFromEnv('route-directory-test', suiteEnv('route-directory'));
  const kafka = createKafka(settings);
  const publisher = new EventPublisher(kafka, settings);
  const directory = new RouteDirectory(new TopicTails(kafka, settings));
  const seen: RouteChangedV1[] = [];
  directory.onChange((route) => seen.push(route));
  const [active, provisioning, behind, gone] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  const publish = (...routes: RouteChangedV1[]) =>
    publisher.publish(
      TOPICS.tenancyRoutes.name,
      routes.map((r) =>
        toWire({ id: randomUUID(), type: ROUTE_CHANGED_TYPE, orgId: r.org_id, time: r.at, key: r.org_id, payload: r }),
      ),
    );

  beforeAll(async () => {
    await ensureTopics(kafka, settings, [TOPICS.tenancyRoutes]);
    await publisher.onModuleInit();
    await publish(
      routeOf(active),
      routeOf(provisioning, { state: 'provisioning', schema_version: null }),
      routeOf(behind, { schema_version: '1' }),
      routeOf(gone, { state: 'deprovisioned', schema_version: null }),
    );
    await directory.onApplicationBootstrap();
  });

  afterAll(async () => {
    await directory.onModuleDestroy();
    await publisher.onApplicationShutdown();
    await deleteTopicsWithPrefix(kafka, settings.prefix);
  });

  it('places every organization from the routes published before it started', async () => {
    expect(seen.map((r) => r.org_id)).toEqual(expect.arrayContaining([active, provisioning, behind, gone]));
    const placements = await directory.placementsOf([active, provisioning, behind, gone]);
    expect(placements.get(active)).toEqual({
      kind: 'tenant',
      server: '127.0.0.1:5433',
      database: `tenant_${active.slice(0, 8)}`,
    });
    expect(placements.get(provisioning)).toEqual({ kind: 'unavailable', reason: 'not_migrated' });
    expect(placements.get(behind)).toEqual({ kind: 'unavailable', reason: 'schema_behind' });
    expect(placements.get(gone)).toEqual({ kind: 'unavailable', reason: 'deprovisioned' });
  });

  it('confirms an unknown organization shared only after reading the topic to its end', async () => {
    expect(await directory.placementOf(randomUUID())).toEqual({ kind: 'shared' });
    // Published a moment before the first question about it: the question reads up to it, so a
    // tenant whose route precedes its credentials is never taken for a shared organization.
    const justPlaced = randomUUID();
    await publish(routeOf(justPlaced));
    expect(await directory.placementOf(justPlaced)).toMatchObject({ kind: 'tenant' });
  });

  it('follows changes as they are published and tells its listeners', async () => {
    const tenant = randomUUID();
    await publish(routeOf(tenant, { state: 'provisioning', schema_version: null }));
    expect(await directory.placementOf(tenant)).toEqual({ kind: 'unavailable', reason: 'not_migrated' });

    await publish(routeOf(tenant));
    await eventually(
      () => directory.placementOf(tenant),
      (p) => p.kind === 'tenant',
      { what: 'the active route' },
    );
    await publish(routeOf(tenant, { state: 'deprovisioned', schema_version: null }));
    await eventually(
      () => directory.placementOf(tenant),
      (p) => p.kind === 'unavailable' && p.reason === 'deprovisioned',
      { what: 'the deprovisioned route' },
    );
    expect(seen.filter((r) => r.org_id === tenant).map((r) => r.state)).toEqual([
      'provisioning',
      'active',
      'deprovisioned',
    ]);
  });
});
