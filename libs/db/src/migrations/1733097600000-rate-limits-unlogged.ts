import { MigrationInterface, QueryRunner } from 'typeorm';

// Every ingest request upserts its organization's rate-limit counter. Logged, each of those one-row
// commits waited for a WAL flush of its own; unlogged, it writes no WAL and waits for none. The
// counters only describe the current window: after a database crash Postgres empties the table, and
// every organization starts a fresh window, which is what a rate limiter may do. Measurements:
// docs/adr/0007-unlogged-rate-limit-counters.md.
export class RateLimitsUnlogged1733097600000 implements MigrationInterface {
  name = 'RateLimitsUnlogged1733097600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_rate_limits SET UNLOGGED');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ingest_rate_limits SET LOGGED');
  }
}
