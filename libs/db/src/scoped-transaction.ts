import { escapeLiteral } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** What work inside a transaction gets: statements only, never a transaction of its own. */
export type Queryable = Pick<EntityManager, 'query'>;

/** Transaction-local settings that row-level security reads: `{ 'app.org_id': orgId }`. */
export type ScopeSettings = Readonly<Record<string, string>>;

const BEGIN = {
  readWrite: 'BEGIN',
  /** One consistent snapshot over several statements (a list read in chunks). */
  readOnlySnapshot: 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY',
} as const;
export type ScopeMode = keyof typeof BEGIN;

/**
 * Opens a transaction on the runner with its settings in place, in one round trip: `BEGIN` and the
 * `set_config(…, true)` calls go as one simple-protocol query, where a parameter would need a
 * statement of its own. A round trip costs this kind of machine about 125 µs of CPU, client and
 * server together, on every API request (docs/performance.md). The values are quoted by
 * node-postgres's escapeLiteral; a NUL, which no Postgres text can hold and which would end the
 * query's text on the wire, is refused before anything is sent.
 */
export async function beginScoped(runner: QueryRunner, settings: ScopeSettings, mode: ScopeMode = 'readWrite') {
  const calls = Object.entries(settings).map(([name, value]) => {
    if (name.includes('\0') || value.includes('\0')) throw new Error(`setting ${name} holds a NUL character`);
    return `set_config(${escapeLiteral(name)}, ${escapeLiteral(value)}, true)`;
  });
  await runner.query(calls.length > 0 ? `${BEGIN[mode]}; SELECT ${calls.join(', ')}` : BEGIN[mode]);
}

/** Ends what beginScoped opened; a broken connection has no transaction left to roll back. */
export async function endScoped(runner: QueryRunner, commit: boolean): Promise<void> {
  if (commit) {
    await runner.query('COMMIT');
    return;
  }
  try {
    await runner.query('ROLLBACK');
  } catch {
    // The connection is gone, and its transaction with it; the caller's own error is what counts.
  }
}

/**
 * `work` in one transaction of `dataSource` with `settings` in place: committed when it resolves,
 * rolled back when it throws. It sees only `query`, so it cannot open a transaction of its own
 * inside this one.
 */
export async function inScopedTransaction<T>(
  dataSource: DataSource,
  settings: ScopeSettings,
  work: (db: Queryable) => Promise<T>,
  mode: ScopeMode = 'readWrite',
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    let result: T;
    try {
      await beginScoped(runner, settings, mode);
      result = await work(runner.manager);
    } catch (error) {
      await endScoped(runner, false);
      throw error;
    }
    await endScoped(runner, true);
    return result;
  } finally {
    await runner.release();
  }
}
