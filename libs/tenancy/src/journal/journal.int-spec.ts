import { randomUUID } from 'node:crypto';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Context, decide, FlowConflict, FlowState } from '../domain/flow';
import { appendToFlow, flowsOfSlug, loadFlow } from './journal';

// The journal on a real Postgres, through the control plane's own role.
describe('flow journal', () => {
  let control: DataSource;
  const alice: Context = { actor: 'alice', role: 'operator', now: new Date().toISOString() };
  const engine: Context = { actor: 'system:flow-engine', role: 'system', now: new Date().toISOString() };
  const request = (slug: string) => ({
    slug,
    name: 'Journal Inc',
    owner_email: 'it@journal.test',
    region: 'local',
    plan_tier: 'core' as const,
    isolation: 'shared' as const,
    security_profile_target: 'monitor' as const,
  });

  beforeAll(async () => {
    control = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().controlUrl }).initialize();
  });
  afterAll(() => control?.destroy());

  async function open(): Promise<{ slug: string; flowId: string; state: FlowState }> {
    const slug = `journal-${uuidv7()}`;
    const flowId = uuidv7();
    const events = decide(
      { type: 'RequestTenant', flowId, tenantId: flowId, orgId: randomUUID(), request: request(slug) },
      null,
      alice,
    );
    const state = await control.transaction((tx) => appendToFlow(tx, flowId, 0, null, events));
    return { slug, flowId, state };
  }

  it('appends, projects the flow row and sets the timer in one transaction', async () => {
    const { slug, flowId } = await open();
    const { state, version } = await loadFlow(control.manager, flowId);
    expect([state?.status, version]).toEqual(['requested', 1]);
    const { onboard } = await flowsOfSlug(control.manager, slug);
    expect(onboard).toMatchObject({ stream_id: flowId, state: 'requested', version: 1, live: true });
    const timers = await control.query('SELECT 1 FROM tenancy_timers WHERE stream_id = $1', [flowId]);
    expect(timers).toHaveLength(1);
    const outbox = await control.query(`SELECT key, ce_type FROM tenancy_outbox WHERE key = $1`, [slug]);
    expect(outbox).toEqual([{ key: slug, ce_type: 'agentwatch.tenancy.flow-event.v1' }]);
  });

  it('refuses an append at a stale version (optimistic concurrency)', async () => {
    const { flowId, state } = await open();
    const next = decide({ type: 'RequestApproval' }, state, engine);
    await control.transaction((tx) => appendToFlow(tx, flowId, 1, state, next));
    await expect(control.transaction((tx) => appendToFlow(tx, flowId, 1, state, next))).rejects.toThrow(FlowConflict);
    expect((await loadFlow(control.manager, flowId)).version).toBe(2);
  });

  it('refuses a second live flow for the same slug', async () => {
    const { slug } = await open();
    const flowId = uuidv7();
    const events = decide(
      { type: 'RequestTenant', flowId, tenantId: flowId, orgId: randomUUID(), request: request(slug) },
      null,
      alice,
    );
    await expect(control.transaction((tx) => appendToFlow(tx, flowId, 0, null, events))).rejects.toThrow(FlowConflict);
  });

  it('is append-only for the control plane role, and an active route cannot hold a null schema_version', async () => {
    const { flowId } = await open();
    await expect(
      control.query(`UPDATE tenancy_journal SET actor = 'mallory' WHERE stream_id = $1`, [flowId]),
    ).rejects.toThrow(/permission denied/);
    await expect(control.query('DELETE FROM tenancy_journal WHERE stream_id = $1', [flowId])).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      control.query(
        `INSERT INTO tenancy_routes (slug, tenant_id, org_id, state, cell, region, server, database_name, schema_version)
         VALUES ($1, $2, $2, 'active', 'local-1', 'local', '127.0.0.1:5432', 'tenant_x', NULL)`,
        [`route-${flowId}`, flowId],
      ),
    ).rejects.toThrow(/tenancy_routes_active_migrated/);
    await expect(
      control.query(
        `INSERT INTO tenancy_routes (slug, tenant_id, org_id, state, cell, region, server, database_name, schema_version)
         VALUES ($1, $2, $2, 'deprovisioned', 'local-1', 'local', '127.0.0.1:5432', 'tenant_x', '1')`,
        [`route-${flowId}`, flowId],
      ),
    ).rejects.toThrow(/tenancy_routes_deprovisioned_unmigrated/);
  });
});
