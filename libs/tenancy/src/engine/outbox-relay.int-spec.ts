import { databaseConfigFromEnv } from '@agentwatch/db';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { pruneRelayedOutbox } from './outbox-relay';

// Pruning on a real Postgres, through the control plane's own role (which may delete outbox rows).
describe('outbox pruning', () => {
  let control: DataSource;

  beforeAll(async () => {
    control = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().controlUrl }).initialize();
  });
  afterAll(() => control?.destroy());

  const row = async (key: string, createdAgo: string, publishedAgo: string | null) =>
    control.query(
      `INSERT INTO tenancy_outbox (topic, key, ce_id, ce_type, org_id, payload, created_at, published_at)
       VALUES ('tenancy.flows.v1', $1, $2, 'agentwatch.tenancy.flow-event.v1', $2, '{}',
               now() - $3::interval, now() - $4::interval)`,
      [key, uuidv7(), createdAgo, publishedAgo],
    );

  it('deletes rows relayed before the retention, and keeps recent and unrelayed ones', async () => {
    const slug = `prune-${uuidv7()}`;
    await row(`${slug}-old`, '9 days', '8 days');
    await row(`${slug}-recent`, '9 days', '1 hour');
    await row(`${slug}-unrelayed`, '9 days', null);

    expect(await pruneRelayedOutbox(control, 7 * 24 * 3_600_000)).toBeGreaterThanOrEqual(1);

    const left = await control.query('SELECT key FROM tenancy_outbox WHERE key LIKE $1 ORDER BY key', [`${slug}-%`]);
    expect(left.map((r: { key: string }) => r.key)).toEqual([`${slug}-recent`, `${slug}-unrelayed`]);
    expect(await pruneRelayedOutbox(control, 7 * 24 * 3_600_000)).toBe(0);
  });
});
