import { CHECKIN_RECORDED_TYPE, checkinRecordedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { PRODUCT_MIGRATIONS } from '@agentwatch/db';
import { createKafka, EventPublisher, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { call, eventually } from '@agentwatch/testing';
import { v7 as uuidv7 } from 'uuid';
import { spawnControlPlane } from '../../libs/testing/src/control-plane-process';
import {
  controlPlaneEnv,
  dropTenantDatabase,
  isolatedDatabase,
  Operators,
  queryDatabase,
  startControlPlaneApp,
  startOperators,
  tenantDatabaseExists,
  uniqueSlug,
} from '../../libs/testing/src/control-plane-stack';

const tenant = (slug: string, region: string) => ({
  slug,
  name: 'Initech',
  owner_email: 'it@initech.test',
  region,
  plan_tier: 'enterprise',
  isolation: 'shared',
});

async function journalOf(env: NodeJS.ProcessEnv, slug: string) {
  return queryDatabase<{ type: string; data: Record<string, unknown> }>(
    env,
    null,
    'SELECT type, data FROM tenancy_journal WHERE slug = $1 ORDER BY position',
    [slug],
  );
}

async function checkIn(env: NodeJS.ProcessEnv, orgId: string): Promise<void> {
  const settings = kafkaSettingsFromEnv('tenancy-test', env);
  const publisher = new EventPublisher(createKafka(settings), settings);
  await publisher.onModuleInit();
  const checkin = checkinRecordedV1.parse({
    id: uuidv7(),
    org_id: orgId,
    credential: 'service-token',
    credential_id: 'm-1',
    machine_id: 'm-1',
    hostname: null,
    os: null,
    arch: null,
    daemon_version: null,
    reason: 'registered',
    timestamp: new Date().toISOString(),
  });
  await publisher.publish(TOPICS.ingestCheckins.name, [
    toWire({
      id: checkin.id,
      type: CHECKIN_RECORDED_TYPE,
      orgId,
      time: checkin.timestamp,
      key: orgId,
      payload: checkin,
    }),
  ]);
  await publisher.onApplicationShutdown();
}

describe('a cell at capacity', () => {
  let operators: Operators;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const slug = uniqueSlug('cap');
  const cells = (capacity: number) => JSON.stringify([{ id: 'small-1', region: 'eu-test', capacity }]);

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cpcap');
  });

  afterAll(async () => {
    await dropTenantDatabase(db.env, `tenant_${slug}`);
    await operators?.idp.stop();
    await db?.drop();
  });

  it('fails placement with no_placeable_cell, backs off, pauses, and finishes after capacity is raised and the flow resumed', async () => {
    const env = controlPlaneEnv('tenancy-cap', operators, {
      ...db.env,
      CONTROL_CELLS: cells(0),
      CONTROL_RETRY_BASE_MS: '1000',
      CONTROL_RETRY_MAX_ATTEMPTS: '3',
    });
    let cp = await startControlPlaneApp(env);
    const detail = async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body;
    expect(
      (await call(`${cp.url}/v1/tenants`, { method: 'POST', token: operators.alice, body: tenant(slug, 'eu-test') }))
        .status,
    ).toBe(202);
    await eventually(detail, (d) => d.state === 'pending-approval', { what: 'pending-approval' });
    expect((await call(`${cp.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.bob })).status).toBe(
      200,
    );

    const backingOff = await eventually(detail, (d) => d.presentation === 'backing-off', { what: 'backing-off' });
    expect(backingOff).toMatchObject({ state: 'failed', last_error: 'no_placeable_cell', failed_step: 'place' });
    expect(backingOff.attempts).toBeGreaterThanOrEqual(1);
    expect(typeof backingOff.next_retry_at).toBe('string');
    await eventually(detail, (d) => d.state === 'paused', { what: 'paused', timeoutMs: 30_000 });

    const journal = await journalOf(env, slug);
    const failures = journal.filter((e) => e.type === 'StepFailed').map((e) => e.data);
    expect(failures.map((f) => [f.step, f.reason, f.attempt])).toEqual([
      ['place', 'no_placeable_cell', 1],
      ['place', 'no_placeable_cell', 2],
    ]);
    expect(failures.every((f) => typeof f.next_retry_at === 'string')).toBe(true);
    expect(journal.filter((e) => e.type === 'RetriesExhausted').map((e) => e.data)).toEqual([
      { step: 'place', reason: 'no_placeable_cell', attempts: 3 },
    ]);
    // Paused stays paused: the engine never wakes it on its own.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await detail()).state).toBe('paused');

    await cp.stop();
    cp = await startControlPlaneApp({ ...env, CONTROL_CELLS: cells(1) });
    const resumed = await call(`${cp.url}/v1/tenants/${slug}/resume`, { method: 'POST', token: operators.alice });
    expect(resumed.status).toBe(200);
    const waiting = await eventually(detail, (d) => d.state === 'awaiting-first-checkin', {
      what: 'awaiting-first-checkin',
    });
    expect(waiting).toMatchObject({ cell: 'small-1', attempts: 0 });
    await checkIn(env, waiting.organization_id as string);
    await eventually(detail, (d) => d.state === 'active', { what: 'active' });
    await cp.stop();
  });
});

describe('the control plane killed mid-provisioning', () => {
  let operators: Operators;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  const slug = uniqueSlug('kill');
  const database = `tenant_${slug}`;

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('cpkill');
  });

  afterAll(async () => {
    await dropTenantDatabase(db.env, database);
    await operators?.idp.stop();
    await db?.drop();
  });

  it('finishes the flow after a restart, creating nothing twice, and never logs the raw token', async () => {
    const env = controlPlaneEnv('tenancy-kill', operators, { ...db.env, CONTROL_STEP_LEASE_MS: '2000' });
    const first = await spawnControlPlane({ ...env, AGENTWATCH_FAILPOINT: 'control-plane.after-create-database' });
    const detail = async (url: string) => (await call(`${url}/v1/tenants/${slug}`, { token: operators.viewer })).body;
    expect(
      (await call(`${first.url}/v1/tenants`, { method: 'POST', token: operators.alice, body: tenant(slug, 'local') }))
        .status,
    ).toBe(202);
    await eventually(
      () => detail(first.url),
      (d) => d.state === 'pending-approval',
      { what: 'pending-approval' },
    );
    expect(
      (await call(`${first.url}/v1/tenants/${slug}/approve`, { method: 'POST', token: operators.bob })).status,
    ).toBe(200);

    // The process dies right after CREATE DATABASE, before the outcome reached the journal.
    expect(await first.exited).toBe('SIGKILL');
    expect(await tenantDatabaseExists(env, database)).toBe(true);
    expect((await journalOf(env, slug)).map((e) => e.type)).not.toContain('DatabaseMigrated');

    const second = await spawnControlPlane({ ...env, LOG_LEVEL: 'debug' });
    try {
      const done = await eventually(
        () => detail(second.url),
        (d) => d.state === 'awaiting-first-checkin',
        {
          what: 'awaiting-first-checkin after the restart',
        },
      );
      expect(done).toMatchObject({ database_name: database, cell: 'local-1' });
      const types = (await journalOf(env, slug)).map((e) => e.type);
      for (const once of ['CellPlaced', 'DatabaseMigrated', 'RouteRecorded', 'FirstCheckinAwaited']) {
        expect({ once, count: types.filter((t) => t === once).length }).toEqual({ once, count: 1 });
      }
      const migrations = await queryDatabase<{ name: string }>(env, database, 'SELECT name FROM migrations');
      expect(migrations.map((m) => m.name).sort()).toEqual(PRODUCT_MIGRATIONS.map((m) => m.name).sort());

      const minted = await call<{ token: string }>(`${second.url}/v1/tenants/${slug}/tokens`, {
        method: 'POST',
        token: operators.alice,
      });
      expect(minted.status).toBe(201);
      const raw = minted.body.token;
      await eventually(
        () => queryDatabase(env, null, 'SELECT 1 FROM tenancy_outbox WHERE published_at IS NULL'),
        (rows) => rows.length === 0,
        { what: 'outbox relayed' },
      );
      await second.kill('SIGTERM');
      expect(second.output()).not.toContain(raw);
      expect(first.output()).not.toContain(raw);
      const stored = await queryDatabase(env, null, 'SELECT * FROM tenancy_journal');
      expect(JSON.stringify(stored)).not.toContain(raw);
      const outbox = await queryDatabase(env, null, 'SELECT * FROM tenancy_outbox');
      expect(JSON.stringify(outbox)).not.toContain(raw);
      const tokens = await queryDatabase<{ token_hash: string }>(env, null, 'SELECT * FROM tenancy_tokens');
      expect(JSON.stringify(tokens)).not.toContain(raw);
      expect(tokens).toHaveLength(1);
    } finally {
      await second.kill('SIGTERM');
    }
  });
});
