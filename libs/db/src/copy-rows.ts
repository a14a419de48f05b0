import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { EntityManager } from 'typeorm';

const UNIQUE_VIOLATION = '23505';
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const SPECIAL = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One field of COPY's text format: `\N` for null, the delimiter, line ends and backslash escaped. */
export function copyText(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(SPECIAL, (c) => ESCAPES[c]);
}

const quoted = (name: string) => {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
};

/** The pg connection a TypeORM transaction runs on: COPY is a protocol of its own, not a query. */
function connectionOf(tx: EntityManager): PoolClient {
  const connection = (tx.queryRunner as { databaseConnection?: PoolClient } | undefined)?.databaseConnection;
  if (!connection) throw new Error('COPY needs the EntityManager of an open transaction');
  return connection;
}

/** Streams `rows` (already COPY text fields) into `table` with one COPY … FROM STDIN. */
async function copyRows(tx: EntityManager, table: string, columns: string[], rows: string[][]): Promise<void> {
  const sql = `COPY ${quoted(table)} (${columns.map(quoted).join(', ')}) FROM STDIN`;
  const lines = rows.map((fields) => `${fields.join('\t')}\n`).join('');
  await pipeline(Readable.from([lines]), connectionOf(tx).query(copyFrom(sql)));
}

/**
 * COPY costs Postgres well under an INSERT … SELECT FROM unnest of the same rows, but it has no ON
 * CONFLICT. Rows are copied inside a savepoint; when one of them exists already (a redelivered or
 * replayed batch), the savepoint is rolled back and `fallback` writes the batch, skipping what is there.
 * The statements that follow in the transaction run inside the savepoint; a later ROLLBACK TO an
 * enclosing savepoint, or the transaction's COMMIT or ROLLBACK, ends it with them.
 */
export async function copyRowsOnce(
  tx: EntityManager,
  table: string,
  columns: string[],
  rows: string[][],
  fallback: () => Promise<unknown>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query('SAVEPOINT copy_rows');
  try {
    await copyRows(tx, table, columns, rows);
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT copy_rows');
    await fallback();
  }
  // Not released: a savepoint left open commits with its transaction, and RELEASE was a round trip of its own.
}
