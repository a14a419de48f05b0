import { MigrationInterface, QueryRunner } from 'typeorm';

// Every ingest request upserts its organization's rate-limit counter. Logged, each of those one-row
// commits waited for a WAL flush of its own; unlogged, it writes no WAL and waits for none. The
// counters only describe the current window: after a database crash Postgres empties the table, and
// every organization starts a fresh window, which is what a rate limiter may do. Cloud API alone at
// batch 50, three alternated pairs of 60,000 items (issue 7): Postgres CPU per item 9–10 → 5–6 µs,
// API CPU per item 71–103 → 61–83 µs, 9.3–11.9k → 10.9–13.6k items/s.
export class RateLimitsUnlogged1733097600000 implements MigrationInterface {
  name = 'RateLimitsUnlogged1733097600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_rate_limits SET UNLOGGED');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_rate_limits SET LOGGED');
  }
}
