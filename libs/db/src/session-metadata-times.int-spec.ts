import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { bootstrapDatabase, ownerDataSource, scratchDatabase } from './bootstrap';
import { MIGRATIONS } from './migrations';
import { SessionMetadataTimes1733356800000 } from './migrations/1733356800000-session-metadata-times';

// This migration and every later one: undone to reach the older schema, applied again by set-up.
const fromThisOne = MIGRATIONS.slice(MIGRATIONS.indexOf(SessionMetadataTimes1733356800000)).map((m) => m.name);

describe('the sessions migration to a time per metadata column', () => {
  const { config, drop: dropScratch } = scratchDatabase('session_times');
  const orgId = randomUUID();
  const [dated, undated, eventsOnly] = [randomUUID(), randomUUID(), randomUUID()];

  afterAll(dropScratch);

  it('dates each known value by the row’s record_at (undated: -infinity), and gives record_at back when undone', async () => {
    await dropScratch();
    await bootstrapDatabase(config);
    const owner = await ownerDataSource(config).initialize();
    const projector = new Client({ connectionString: config.projectorUrl });
    await projector.connect();
    try {
      for (const _ of fromThisOne) await owner.undoLastMigration();
      // What the older projection left: a merged row, one from before record_at existed, one from events only.
      await projector.query(
        `INSERT INTO sessions (org_id, id, session_name, model, platform, state, state_at, started_at, last_seen_at, record_at)
         VALUES ($1, $2, 'build', 'm1', NULL, 'idle', '2026-11-20T10:00:05Z', '2026-11-20T10:00:00Z', '2026-11-20T10:00:09Z', '2026-11-20T10:00:05Z'),
                ($1, $3, NULL, NULL, 'linux', 'active', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z', NULL),
                ($1, $4, NULL, NULL, NULL, 'active', '-infinity', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z', NULL)`,
        [orgId, dated, undated, eventsOnly],
      );

      expect(await bootstrapDatabase(config)).toEqual(fromThisOne);
      const times = await projector.query(
        `SELECT id, session_name_at::text, model_at::text, signing_id_at::text, platform_at::text, parent_id_at::text
           FROM sessions WHERE org_id = $1`,
        [orgId],
      );
      const byId = new Map(times.rows.map(({ id, ...row }) => [id, row]));
      const none = {
        session_name_at: null,
        model_at: null,
        signing_id_at: null,
        platform_at: null,
        parent_id_at: null,
      };
      const at = (await projector.query(`SELECT '2026-11-20T10:00:05Z'::timestamptz::text AS t`)).rows[0].t;
      expect(byId.get(dated)).toEqual({ ...none, session_name_at: at, model_at: at });
      expect(byId.get(undated)).toEqual({ ...none, platform_at: '-infinity' });
      expect(byId.get(eventsOnly)).toEqual(none);

      for (const _ of fromThisOne) await owner.undoLastMigration();
      const recordAt = await projector.query(
        'SELECT id, record_at::text FROM sessions WHERE org_id = $1 ORDER BY record_at NULLS LAST',
        [orgId],
      );
      expect(new Map(recordAt.rows.map((r) => [r.id, r.record_at]))).toEqual(
        new Map([
          [dated, at],
          [undated, null],
          [eventsOnly, null],
        ]),
      );
    } finally {
      await projector.end();
      await owner.destroy();
    }
  });
});
