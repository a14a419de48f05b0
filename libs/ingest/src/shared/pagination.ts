import { storableText, TEXT_LIMITS } from '@agentwatch/contracts';
import { badRequest } from '@agentwatch/http';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Position after the last row of a page, in the list's sort order: (time, id). */
export interface Cursor {
  at: Date;
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

/** What the id half of a list's cursor must be: a UUID (events, sessions) or a short text (agent ids). */
export type CursorId = 'uuid' | 'text';

export const INVALID_CURSOR = 'Invalid cursor';
/** The sentence every paged route's OpenAPI description carries. */
export const CURSOR_DOC =
  '`cursor` is the previous page\'s `next_cursor`, passed unchanged; any other value → 400 `{"error":"Invalid cursor"}`.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64URL = /^[A-Za-z0-9_-]{1,2048}$/;
// Date#toISOString's two shapes: four-digit years, and signed six-digit ones outside 0000–9999.
const ISO_INSTANT = /^(?:\d{4}|[+-]\d{6})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// PostgreSQL's timestamptz starts in 4713 BC (JavaScript year -4712); its upper end lies beyond JavaScript's.
const PG_EARLIEST_MS = Date.UTC(-4712, 0, 1);
// A text id is an agent id: the cursor of its last row must take every id the ingest domain stores.
const agentId = storableText(TEXT_LIMITS.agentId);

export function parseLimit(raw: unknown): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  const limit = typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}

export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString('base64url');

const validId = (id: unknown, kind: CursorId): id is string =>
  typeof id === 'string' && (kind === 'uuid' ? UUID.test(id) : id.length > 0 && agentId.safeParse(id).success);

function validInstant(at: unknown): Date | null {
  if (typeof at !== 'string' || !ISO_INSTANT.test(at)) return null;
  const date = new Date(at);
  // The round trip refuses impossible dates (2026-02-30) that the pattern lets through.
  if (Number.isNaN(date.getTime()) || date.toISOString() !== at || date.getTime() < PG_EARLIEST_MS) return null;
  return date;
}

/**
 * The cursor is opaque to clients but arrives from them: everything the query will bind is checked
 * here (shape, an instant PostgreSQL can store, the id's form), so a forged cursor is the caller's
 * 400 and never reaches the database as a cast error.
 */
export function decodeCursor(raw: unknown, idKind: CursorId = 'uuid'): Cursor | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || !BASE64URL.test(raw)) throw badRequest(INVALID_CURSOR);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID_CURSOR);
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw badRequest(INVALID_CURSOR);
  const at = validInstant(decoded[0]);
  if (at === null || !validId(decoded[1], idKind)) throw badRequest(INVALID_CURSOR);
  return { at, id: decoded[1] };
}

export const pageRequest = (query: { limit?: unknown; cursor?: unknown }, idKind: CursorId = 'uuid'): PageRequest => ({
  limit: parseLimit(query.limit),
  after: decodeCursor(query.cursor, idKind),
});

/** Queries fetch limit + 1 rows: the extra row only tells whether another page exists. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => Cursor): Page<T> {
  const items = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { items, next_cursor: hasMore ? encodeCursor(cursorOf(items[items.length - 1])) : null };
}
