import { MigrationInterface, QueryRunner } from 'typeorm';

// Each metadata column of `sessions` gets the time of the record its value came from, so that the
// projector's merge keeps, per column, the newest record's value whatever order records arrive in
// (one record_at for the whole row could not date a value kept from an older record). A time is
// NULL exactly while its column is. Existing values are dated by the row's record_at, the best
// known; a value older than record_at (a column an older record filled) is then dated too late
// and may lose to a record of the same time: a replay of the sessions projection dates it exactly.
// Values from before record_at existed are undated: '-infinity', which any record supersedes, as
// before. record_at has no reader left and goes.
const COLUMNS = ['session_name', 'model', 'signing_id', 'platform', 'parent_id'];
const TIMES = COLUMNS.map((c) => `${c}_at`);

export class SessionMetadataTimes1733356800000 implements MigrationInterface {
  name = 'SessionMetadataTimes1733356800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sessions ${COLUMNS.map((c) => `ADD COLUMN ${c}_at timestamptz`).join(', ')}`);
    // Row-level security is forced on sessions, even for its owner: lifted inside this transaction
    // only, which also keeps the projector out until it commits.
    await q.query('ALTER TABLE sessions NO FORCE ROW LEVEL SECURITY');
    await q.query(`
      UPDATE sessions
         SET ${COLUMNS.map((c) => `${c}_at = CASE WHEN ${c} IS NOT NULL THEN COALESCE(record_at, '-infinity') END`).join(', ')}
       WHERE num_nonnulls(${COLUMNS.join(', ')}) > 0`);
    await q.query('ALTER TABLE sessions FORCE ROW LEVEL SECURITY');
    await q.query('ALTER TABLE sessions DROP COLUMN record_at');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sessions ADD COLUMN record_at timestamptz');
    await q.query('ALTER TABLE sessions NO FORCE ROW LEVEL SECURITY');
    await q.query(
      `UPDATE sessions SET record_at = NULLIF(GREATEST(${TIMES.join(', ')}), '-infinity') WHERE num_nonnulls(${TIMES.join(', ')}) > 0`,
    );
    await q.query('ALTER TABLE sessions FORCE ROW LEVEL SECURITY');
    await q.query(`ALTER TABLE sessions ${TIMES.map((t) => `DROP COLUMN ${t}`).join(', ')}`);
  }
}
