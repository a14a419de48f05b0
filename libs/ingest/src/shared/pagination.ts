import { badRequest } from '@agentwatch/http';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Position after the last row of a page, in the list's sort order: (time, id). */
export interface Cursor {
  at: string;
  id: string;
}

export interface PageRequest {
  limit: number;
  after: Cursor | null;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');

export function decodeCursor(raw: string | undefined): Cursor | null {
  if (raw === undefined || raw === '') return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at)) || typeof id !== 'string') throw new Error();
    return { at, id };
  } catch {
    throw badRequest('Invalid cursor: pass the next_cursor of the previous page unchanged');
  }
}

export const pageRequest = (query: { limit?: string; cursor?: string }): PageRequest => ({
  limit: parseLimit(query.limit),
  after: decodeCursor(query.cursor),
});

/** Queries fetch limit + 1 rows: the extra row only tells whether another page exists. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => Cursor): Page<T> {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { items, next_cursor: hasMore ? encodeCursor(cursorOf(items[items.length - 1])) : null };
}
