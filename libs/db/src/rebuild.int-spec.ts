import { DataSource } from 'typeorm';
import { ownerDataSource } from './bootstrap';
import { databaseConfigFromEnv } from './database.config';
import { dropRebuildSchema, prepareRebuildSchema } from './rebuild';

// The swap and what the live tables look like afterwards are proven end to end by
// apps/projector/src/replay.int-spec.ts; this is what the copies look like while they are loaded.
describe('a rebuild schema', () => {
  const schema = `rebuild_spec_${Date.now().toString(36)}`;
  let owner: DataSource;

  const indexesOf = async (namespace: string, table: string): Promise<{ unique: boolean; definition: string }[]> =>
    (
      await owner.query(
        `SELECT x.indisunique AS "unique", pg_get_indexdef(x.indexrelid) AS definition
           FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = $1 AND t.relname = $2 ORDER BY 2`,
        [namespace, table],
      )
    ).map((i: { unique: boolean; definition: string }) => ({
      ...i,
      definition: i.definition.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, ''),
    }));

  beforeAll(async () => {
    owner = await ownerDataSource(databaseConfigFromEnv()).initialize();
  });

  afterAll(async () => {
    await dropRebuildSchema(owner, schema);
    await owner?.destroy();
  });

  it('loads into copies that keep only the unique indexes (upserts need them), the storage options and the triggers', async () => {
    await prepareRebuildSchema(owner, schema, ['events', 'event_hourly_counts', 'event_scores', 'event_hourly_risk']);

    const live = await indexesOf('public', 'events');
    expect(live.filter((i) => !i.unique)).toHaveLength(2);
    expect(await indexesOf(schema, 'events')).toEqual(live.filter((i) => i.unique));
    expect(await indexesOf(schema, 'event_hourly_counts')).toEqual(await indexesOf('public', 'event_hourly_counts'));
    expect(await indexesOf(schema, 'event_hourly_risk')).toEqual(await indexesOf('public', 'event_hourly_risk'));
    const options = await owner.query(
      `SELECT n.nspname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relname = 'events' AND n.nspname IN ('public', $1) ORDER BY n.nspname = 'public'`,
      [schema],
    );
    expect(options.map((o: { reloptions: string[] | null }) => o.reloptions)).toEqual([
      ['fillfactor=100'],
      ['fillfactor=100'],
    ]);
    const triggersOf = async (table: string) =>
      (
        await owner.query(
          `SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY 1`,
          [`${schema}.${table}`],
        )
      ).map((t: { tgname: string }) => t.tgname);
    expect(await triggersOf('events')).toEqual(['events_append_only', 'events_count_deleted', 'events_count_inserted']);
    expect(await triggersOf('event_scores')).toEqual([
      'event_scores_append_only',
      'event_scores_count_deleted',
      'event_scores_count_inserted',
    ]);
  });
});
