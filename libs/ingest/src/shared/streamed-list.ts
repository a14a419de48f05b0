import { Readable } from 'node:stream';
import { TenantData } from '@agentwatch/cells';
import { beginScoped, endScoped, Queryable } from '@agentwatch/db';
import { Injectable, StreamableFile } from '@nestjs/common';
import { QueryRunner } from 'typeorm';
import { Cursor } from './pagination';

/** Rows read per round trip while streaming a whole list: large enough to be cheap, small enough to hold. */
export const STREAM_CHUNK_ROWS = 1000;

export interface StreamedList<R> {
  /** The answer's key: `{"<key>":[…],"next_cursor":null}`. */
  key: string;
  /** Up to `limit` rows after `after` (null: from the start) in the list's keyset order. */
  chunk(q: Queryable, after: Cursor | null, limit: number): Promise<R[]>;
  cursorOf(row: R): Cursor;
  view(row: R): unknown;
  /** Runs when the list is empty, in the same transaction: may throw (404 for an unknown parent). */
  whenEmpty?(q: Queryable): Promise<void>;
}

/**
 * A whole list as one JSON document, written while it is read: keyset chunks of STREAM_CHUNK_ROWS
 * inside one read-only REPEATABLE READ transaction under the organization's row-level security, in
 * the database its route names, so the answer is one consistent snapshot and memory holds one chunk,
 * not the list. The first chunk is read before answering: an unknown parent or a database error
 * still gets its proper status, and a list that fits in it is answered whole.
 */
@Injectable()
export class ListStreamer {
  constructor(private readonly data: TenantData) {}

  async open<R>(orgId: string, list: StreamedList<R>): Promise<StreamableFile> {
    // The organization's own database (its cell's for a provisioned tenant); unavailable is a 503 here.
    const runner = (await this.data.dataSourceOf(orgId)).createQueryRunner();
    let first: R[];
    try {
      await beginScoped(runner, { 'app.org_id': orgId }, 'readOnlySnapshot');
      first = await list.chunk(runner.manager, null, STREAM_CHUNK_ROWS);
      if (first.length === 0) await list.whenEmpty?.(runner.manager);
    } catch (error) {
      await close(runner, false);
      throw error;
    }
    if (first.length < STREAM_CHUNK_ROWS) {
      // The whole list came in its first chunk, as most do: one body with its length, no stream to keep open.
      await close(runner, true);
      const body = Buffer.from(`{${JSON.stringify(list.key)}:[${rowsText(list, first)}],"next_cursor":null}`);
      return new StreamableFile(body, { type: JSON_TYPE, length: body.length });
    }
    return new StreamableFile(Readable.from(write(runner, list, first)), { type: JSON_TYPE });
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

const rowsText = <R>(list: StreamedList<R>, rows: R[]) => rows.map((row) => JSON.stringify(list.view(row))).join(',');

async function* write<R>(runner: QueryRunner, list: StreamedList<R>, first: R[]): AsyncGenerator<string> {
  let completed = false;
  try {
    yield `{${JSON.stringify(list.key)}:[`;
    let rows = first;
    let separator = '';
    while (rows.length > 0) {
      yield separator + rowsText(list, rows);
      separator = ',';
      if (rows.length < STREAM_CHUNK_ROWS) break;
      rows = await list.chunk(runner.manager, list.cursorOf(rows[rows.length - 1]), STREAM_CHUNK_ROWS);
    }
    yield '],"next_cursor":null}';
    completed = true;
  } finally {
    // Also reached when the client goes away mid-answer: the stream's destruction ends the generator.
    await close(runner, completed);
  }
}

async function close(runner: QueryRunner, commit: boolean): Promise<void> {
  try {
    if (!runner.isReleased) await endScoped(runner, commit);
  } catch {
    // A broken connection has no transaction left to end.
  } finally {
    if (!runner.isReleased) await runner.release();
  }
}
