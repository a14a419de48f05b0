import type { Queryable } from './scoped-transaction';

const UNIQUE_VIOLATION = '23505';

/**
 * `write` inside a savepoint, then `skipKnown` instead when it met a row stored already (a unique
 * violation): a write without ON CONFLICT costs Postgres less per row (100,000 score rows: 8.8–9.5
 * against 10.7–12.2 µs each with ON CONFLICT DO NOTHING), and only a redelivered or replayed batch,
 * rare, pays for a second statement (docs/adr/0024-writes-without-on-conflict.md). Must run in a
 * transaction.
 *
 * Not released: a savepoint left open commits with its transaction, and RELEASE was a round trip of
 * its own. The statements that follow in the transaction run inside the savepoint; a later ROLLBACK
 * TO an enclosing savepoint, or the transaction's COMMIT or ROLLBACK, ends it with them.
 */
export async function writeOnceSkippingKnown(
  q: Queryable,
  write: () => Promise<unknown>,
  skipKnown: () => Promise<unknown>,
): Promise<void> {
  await q.query('SAVEPOINT write_once');
  try {
    await write();
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await q.query('ROLLBACK TO SAVEPOINT write_once');
    await skipKnown();
  }
}
