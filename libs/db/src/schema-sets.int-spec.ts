import { Client } from 'pg';
import { bootstrapDatabase, scratchDatabase } from './bootstrap';
import { ROLE_NAMES } from './database.config';
import { CONTROL_PLANE_MIGRATIONS, MIGRATIONS, PRODUCT_MIGRATIONS } from './migrations';

// A tenant database holds the product schema alone; the shared database adds the control plane's.
describe('the product and control-plane migration sets', () => {
  const { config, drop } = scratchDatabase('schema_sets');

  afterAll(drop);

  async function inspect() {
    const owner = new Client({ connectionString: config.ownerUrl });
    await owner.connect();
    try {
      const tables = await owner.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      const applied = await owner.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      const control = await owner.query<{ journal: boolean | null }>(
        `SELECT CASE WHEN to_regclass('public.tenancy_journal') IS NULL THEN NULL
                     ELSE has_table_privilege($1, 'tenancy_journal', 'INSERT') END AS journal`,
        [ROLE_NAMES.control],
      );
      return {
        tables: tables.rows.map((r) => r.name),
        applied: applied.rows.map((r) => r.name),
        controlMayAppend: control.rows[0].journal,
      };
    } finally {
      await owner.end();
    }
  }

  it('migrates a database with the product set alone, then adds the control plane tables to it', async () => {
    await drop();
    const productNames = PRODUCT_MIGRATIONS.map((m) => m.name);
    expect(await bootstrapDatabase(config, 'product')).toEqual(productNames);

    const product = await inspect();
    expect(product.tables).toEqual(
      expect.arrayContaining([
        'organizations',
        'memberships',
        'sessions',
        'events',
        'agents',
        'event_scores',
        'score_verdicts',
        'event_hourly_counts',
        'event_hourly_risk',
        'projection_checkpoints',
        'dead_letter_redrives',
      ]),
    );
    expect(product.tables.filter((t) => t.startsWith('tenancy_'))).toEqual([]);
    expect(product.applied).toEqual(productNames);
    expect(product.controlMayAppend).toBeNull();
    // Set-up again with the product set: nothing left to apply.
    expect(await bootstrapDatabase(config, 'product')).toEqual([]);

    // The shared database's set-up on it: the control plane's migrations only, older though they are.
    expect(await bootstrapDatabase(config)).toEqual(CONTROL_PLANE_MIGRATIONS.map((m) => m.name));
    const shared = await inspect();
    expect(shared.tables.filter((t) => t.startsWith('tenancy_')).sort()).toEqual([
      'tenancy_checkins',
      'tenancy_data_keys',
      'tenancy_flows',
      'tenancy_journal',
      'tenancy_outbox',
      'tenancy_routes',
      'tenancy_timers',
      'tenancy_tokens',
    ]);
    expect([...shared.applied].sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    expect(shared.controlMayAppend).toBe(true);
  });
});

describe('the migration sets themselves', () => {
  it('split the history without losing or sharing a migration, and keep its order', () => {
    const names = (list: { name: string }[]) => list.map((m) => m.name);
    expect([...names(PRODUCT_MIGRATIONS), ...names(CONTROL_PLANE_MIGRATIONS)].sort()).toEqual(names(MIGRATIONS).sort());
    expect(new Set(names(MIGRATIONS)).size).toBe(MIGRATIONS.length);
    const timestamps = names(MIGRATIONS).map((name) => Number(name.slice(-13)));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(names(CONTROL_PLANE_MIGRATIONS)).toEqual(['Tenancy1732406400000', 'TenancyRouteDirectory1733360000000']);
  });
});
