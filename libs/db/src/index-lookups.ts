import type { Queryable } from './org-scope';

/**
 * Runs `statement` with hash and merge joins off, for a batch that joins its keys (a few thousand at
 * most) against a large table by an indexed key: always one index lookup each. Without planner
 * statistics (a new or rebuilt table), or with a row estimate it cannot make (a recursive CTE's), the
 * planner would hash-join against a full scan of millions of rows.
 */
export async function byIndexLookups<T>(tx: Queryable, statement: () => Promise<T>): Promise<T> {
  await tx.query('SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off');
  const result = await statement();
  // The transaction goes on with other projections' statements, which must plan as usual.
  await tx.query('RESET enable_hashjoin; RESET enable_mergejoin');
  return result;
}
