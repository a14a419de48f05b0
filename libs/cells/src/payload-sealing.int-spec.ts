import { randomBytes, randomUUID } from 'node:crypto';
import { EVENT_RECORDED_TYPE, ROUTE_CHANGED_TYPE, RouteChangedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { databaseConfigFromEnv, PRODUCT_SCHEMA_VERSION } from '@agentwatch/db';
import {
  createKafka,
  deleteTopicsWithPrefix,
  EventPublisher,
  ensureTopics,
  kafkaSettingsFromEnv,
  SEALED_HEADER,
  TopicTails,
} from '@agentwatch/kafka';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { DataSource } from 'typeorm';
import { RawRecord, readRawRecords, sql } from '../../../test/tenant-fixture';
import { DataKeys } from './data-keys';
import { AesGcmPayloadOpener, AesGcmPayloadSealer, ErasedOrganization } from './payload-sealing';
import { RouteDirectory } from './route-directory';

/** What one data-plane process holds: its own key cache (fresh here), a sealer and an opener over it. */
function keysProcess(app: DataSource, directory: RouteDirectory) {
  const keys = new DataKeys(app, directory);
  return { sealer: new AesGcmPayloadSealer(keys), opener: new AesGcmPayloadOpener(keys) };
}

describe('crypto-shredding of a tenant’s records on the topics', () => {
  const env = suiteEnv('payload-sealing');
  const settings = kafkaSettingsFromEnv('sealing-test', env);
  const kafka = createKafka(settings);
  const admin = databaseConfigFromEnv().adminUrl;
  const tenant = randomUUID();
  const selfService = randomUUID();
  const secret = `/home/dev/.ssh/id_${randomUUID().slice(0, 8)}`;
  const stops: (() => Promise<void>)[] = [];
  const directory = new RouteDirectory(new TopicTails(kafka, settings));
  let app: DataSource;
  let routes: EventPublisher;

  const route = (overrides: Partial<RouteChangedV1> = {}): RouteChangedV1 => ({
    org_id: tenant,
    slug: `s${tenant.slice(0, 8)}`,
    state: 'active',
    cell: 'cell-2',
    region: 'eu-2',
    server: '127.0.0.1:5433',
    database: 'tenant_sealing',
    schema_version: PRODUCT_SCHEMA_VERSION,
    at: new Date().toISOString(),
    ...overrides,
  });
  const publishRoute = async (publisher: EventPublisher, r: RouteChangedV1) =>
    publisher.publish(TOPICS.tenancyRoutes.name, [
      toWire({ id: randomUUID(), type: ROUTE_CHANGED_TYPE, orgId: tenant, time: r.at, key: tenant, payload: r }),
    ]);
  const eventRecord = (orgId: string) =>
    toWire({
      id: randomUUID(),
      type: EVENT_RECORDED_TYPE,
      orgId,
      time: new Date().toISOString(),
      key: randomUUID(),
      payload: { org_id: orgId, tool_name: 'cat', arguments: [secret] },
    });

  beforeAll(async () => {
    await ensureTopics(kafka, settings, [TOPICS.tenancyRoutes, TOPICS.ingestEvents]);
    await sql(admin, 'INSERT INTO tenancy_data_keys (org_id, key) VALUES ($1, $2)', [tenant, randomBytes(32)]);
    app = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().appUrl }).initialize();
    routes = new EventPublisher(kafka, settings);
    await routes.onModuleInit();
    await directory.onApplicationBootstrap();
  });

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await directory.onModuleDestroy();
    await routes?.onApplicationShutdown();
    await app?.destroy();
    await sql(admin, 'DELETE FROM tenancy_data_keys WHERE org_id = $1', [tenant]);
    await deleteTopicsWithPrefix(kafka, settings.prefix);
  });

  it('seals a keyed tenant’s values, leaves a self-service one plain, and forgets them once the key is gone', async () => {
    await publishRoute(routes, route());
    const api = keysProcess(app, directory);
    const publisher = new EventPublisher(kafka, settings, api.sealer);
    await publisher.onModuleInit();
    stops.push(() => publisher.onApplicationShutdown());
    await publisher.publish(TOPICS.ingestEvents.name, [eventRecord(tenant), eventRecord(selfService)]);

    const raw = await readRawRecords(env, TOPICS.ingestEvents.name, (records) =>
      [tenant, selfService].every((org) => records.some((r) => r.orgId === org)),
    );
    const sealed = raw.find((r) => r.orgId === tenant) as RawRecord;
    const plain = raw.find((r) => r.orgId === selfService) as RawRecord;
    // What kcat or an export shows: the CloudEvents and org headers, and ciphertext.
    expect(sealed.headers).toMatchObject({ [SEALED_HEADER]: 'v1', org_id: tenant, ce_type: EVENT_RECORDED_TYPE });
    expect(sealed.value.toString('latin1')).not.toContain(secret);
    expect(sealed.value.toString('latin1')).not.toContain('tool_name');
    expect(plain.headers[SEALED_HEADER]).toBeUndefined();
    expect(plain.value.toString()).toContain(secret);

    const consumer = keysProcess(app, directory);
    expect(JSON.parse((await consumer.opener.open(tenant, sealed.value, sealed.headers)) as string)).toMatchObject({
      arguments: [secret],
    });
    expect(await consumer.opener.open(selfService, plain.value, plain.headers)).toBe(plain.value.toString());
    // Sealed under the tenant's organization: the same bytes under another organization's headers do not open.
    await expect(consumer.opener.open(selfService, sealed.value, sealed.headers)).resolves.toBeNull();

    // Deprovisioning: the route first, then the key is destroyed.
    await publishRoute(routes, route({ state: 'deprovisioned', schema_version: null }));
    await eventually(
      () => consumer.opener.open(tenant, sealed.value, sealed.headers),
      (opened) => opened === null,
      { what: 'the running consumer to drop the key on the deprovisioned route' },
    );
    await expect(api.sealer.seal(tenant, '{}')).rejects.toBeInstanceOf(ErasedOrganization);
    await sql(admin, 'DELETE FROM tenancy_data_keys WHERE org_id = $1', [tenant]);

    // A process started after the key's destruction (a replay, an export) cannot open it either.
    const replay = keysProcess(app, directory);
    expect(await replay.opener.open(tenant, sealed.value, sealed.headers)).toBeNull();
  });

  it('opens nothing of a tenant whose key was deleted, even where its route was never seen deprovisioned', async () => {
    const orphan = randomUUID();
    const key = randomBytes(32);
    await sql(admin, 'INSERT INTO tenancy_data_keys (org_id, key) VALUES ($1, $2)', [orphan, key]);
    await routes.publish(TOPICS.tenancyRoutes.name, [
      toWire({
        id: randomUUID(),
        type: ROUTE_CHANGED_TYPE,
        orgId: orphan,
        time: new Date().toISOString(),
        key: orphan,
        payload: route({ org_id: orphan, slug: `o${orphan.slice(0, 8)}` }),
      }),
    ]);
    const plane = keysProcess(app, directory);
    const sealed = await plane.sealer.seal(orphan, JSON.stringify({ secret }));
    await sql(admin, 'DELETE FROM tenancy_data_keys WHERE org_id = $1', [orphan]);
    const later = keysProcess(app, directory);
    expect(await later.opener.open(orphan, Buffer.from(sealed.value), sealed.headers)).toBeNull();
  });
});
