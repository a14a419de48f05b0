// What a random primary key costs Postgres against one that grows with time, on tables the size of
// full mode's (docs/performance.md, "Keys ordered by time"). Apart from the stack: it needs only the
// Postgres of DATABASE_URL's server, where it creates and finally drops the database `key_order`.
//
//   node scripts/bench/key-order.mjs [--rows 10000000] [--batches 2000] [--rounds 2] [--checkpoint]
//
// Two tables of score-like rows, `random` keyed (org_id, event_id) with random UUIDs (as events_pkey
// and event_scores_pkey are: event ids are hashes) and `ordered` keyed (org_id, received_at,
// event_id). Then, alternating between them, batches of 500 rows inserted one transaction each; the
// backend's CPU (from /proc) and the WAL per row are printed. `--checkpoint` starts each round with
// a CHECKPOINT, the worst case for full-page images.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuSeconds } from './stack.mjs';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    batches: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '2' },
    checkpoint: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
const at = (database) => Object.assign(new URL(server), { pathname: `/${database}` }).toString();
const TABLES = { random: '(org_id, event_id)', ordered: '(org_id, received_at, event_id)' };
// A row as the batches insert it: 100 organizations, a 16-byte verdict id of 24 distinct ones.
const ROW = (first) => `('00000000-0000-4000-8000-' || lpad((i % 100)::text, 12, '0'))::uuid, gen_random_uuid(),
  ${first} + interval '1 ms' * i, i % 100, decode(md5((i % 24)::text), 'hex'), ${first} + interval '1 ms' * i`;

const admin = new pg.Client({ connectionString: at('postgres') });
await admin.connect();
await admin.query('DROP DATABASE IF EXISTS key_order');
await admin.query('CREATE DATABASE key_order');
const db = new pg.Client({ connectionString: at('key_order') });
try {
  await db.connect();
  for (const [table, key] of Object.entries(TABLES)) {
    await db.query(`CREATE TABLE ${table} (org_id uuid, event_id uuid, received_at timestamptz, score int,
                      verdict_id bytea, scored_at timestamptz)`);
    await db.query(`INSERT INTO ${table} SELECT ${ROW("timestamptz '2026-11-01'")} FROM generate_series(1, ${rows}) i`);
    await db.query(`ALTER TABLE ${table} ADD PRIMARY KEY ${key}`);
    await db.query(`CREATE INDEX ON ${table} (org_id, scored_at DESC, event_id DESC)`);
    await db.query(`VACUUM ANALYZE ${table}`);
  }
  const [{ pid }] = (await db.query('SELECT pg_backend_pid() AS pid')).rows;
  const walNow = async () => (await db.query('SELECT pg_current_wal_lsn() AS lsn')).rows[0].lsn;
  let clock = Date.parse('2026-11-01') + rows + 1000;
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const table of Object.keys(TABLES)) {
      if (values.checkpoint) await admin.query('CHECKPOINT');
      const [wal, cpu, start] = [await walNow(), cpuSeconds(pid), performance.now()];
      for (let batch = 0; batch < Number(values.batches); batch++, clock += 500) {
        await db.query(
          `INSERT INTO ${table} SELECT ${ROW('to_timestamp($1::bigint / 1000.0)')} FROM generate_series(1, 500) i`,
          [clock],
        );
      }
      const inserted = Number(values.batches) * 500;
      const walBytes = (await db.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d', [wal])).rows[0].d;
      console.log(
        JSON.stringify({
          round,
          table,
          cpuUsPerRow: +(((cpuSeconds(pid) - cpu) * 1e6) / inserted).toFixed(1),
          walBytesPerRow: Math.round(walBytes / inserted),
          seconds: +((performance.now() - start) / 1000).toFixed(1),
        }),
      );
    }
  }
} finally {
  await db.end().catch(() => {});
  await admin.query('DROP DATABASE IF EXISTS key_order');
  await admin.end();
}
