// The shared Postgres server as the bench finds and leaves it: the write-heavy settings it runs with
// (restored afterwards), and what the server wrote per phase (WAL, full-page images, checkpoints,
// buffers its backends had to write out themselves).
import pg from 'pg';

/**
 * Checkpoint spacing for a write-heavy run. With the server's defaults (1 GB of WAL, 5 minutes) the
 * full mode requested a checkpoint every 23 s, and after each one the first change to every page
 * goes to the WAL as a whole 8 kB image. Both take a reload, not a restart.
 */
export const WRITE_HEAVY = { max_wal_size: '16GB', checkpoint_timeout: '15min' };

const SHOWN = ['shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'synchronous_commit'];

/** One connection for `work`, closed afterwards. */
export async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

// Through the server's own `postgres` database: the bench's database is gone when the settings are put back.
function withServer(url, work) {
  const server = new URL(url);
  server.pathname = '/postgres';
  return withClient(server.toString(), work);
}

async function shown(client) {
  const { rows } = await client.query('SELECT name, current_setting(name) AS value FROM unnest($1::text[]) AS name', [
    SHOWN,
  ]);
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/**
 * Applies `settings` with ALTER SYSTEM and a reload when the role may; returns the settings in effect
 * and a `restore()` that puts back what postgresql.auto.conf held before.
 */
export async function applyServerSettings(url, settings) {
  return withServer(url, async (client) => {
    const { rows: role } = await client.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    if (!role[0]?.rolsuper || Object.keys(settings).length === 0) {
      return { applied: false, inEffect: await shown(client), restore: async () => {} };
    }
    const names = Object.keys(settings);
    // What ALTER SYSTEM had set before, as written in postgresql.auto.conf, is put back afterwards.
    const { rows: before } = await client.query(
      `SELECT name, setting FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf' AND name = ANY($1)`,
      [names],
    );
    const alter = (db, name, value) =>
      db.query(
        value === undefined ? `ALTER SYSTEM RESET ${name}` : `ALTER SYSTEM SET ${name} = ${db.escapeLiteral(value)}`,
      );
    for (const [name, value] of Object.entries(settings)) await alter(client, name, value);
    await client.query('SELECT pg_reload_conf()');
    // The reload is asynchronous: wait until a backend sees it, so the first phase runs with it.
    const [first] = names;
    for (let tries = 0; tries < 50; tries++) {
      const { rows } = await client.query('SELECT current_setting($1) AS value', [first]);
      if (rows[0].value === settings[first]) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const restore = () =>
      withServer(url, async (again) => {
        for (const name of names) await alter(again, name, before.find((r) => r.name === name)?.setting);
        await again.query('SELECT pg_reload_conf()');
      });
    return { applied: true, inEffect: await shown(client), restore };
  });
}

/**
 * The server-wide counters of what was written (PostgreSQL 14 and later have pg_stat_wal), and of the
 * blocks read into shared_buffers from the operating system: the misses of a working set, random
 * index pages above all, that outgrew them.
 */
export function walCounters(url) {
  return withServer(url, async (client) => {
    const { rows } = await client.query(
      `SELECT w.wal_bytes::float8 AS wal_bytes, w.wal_fpi::float8 AS wal_fpi,
              b.checkpoints_req::float8 AS checkpoints_requested, b.checkpoints_timed::float8 AS checkpoints_timed,
              b.buffers_backend::float8 AS buffers_written_by_backends,
              (SELECT sum(blks_read) FROM pg_stat_database)::float8 AS blocks_read
         FROM pg_stat_wal w, pg_stat_bgwriter b`,
    );
    return rows[0];
  });
}

/** What the server wrote between two walCounters() readings, per event where it is a volume. */
export function walPerEvent(from, to, events) {
  const delta = (key) => to[key] - from[key];
  return {
    walBytesPerEvent: delta('wal_bytes') / events,
    fullPageImagesPerEvent: delta('wal_fpi') / events,
    checkpointsRequested: delta('checkpoints_requested'),
    checkpointsTimed: delta('checkpoints_timed'),
    buffersWrittenByBackendsPerEvent: delta('buffers_written_by_backends') / events,
    blocksReadPerEvent: delta('blocks_read') / events,
  };
}
