import { z } from 'zod';

/**
 * The instants every layer handles alike: JavaScript dates, Postgres `timestamptz`, the driver that
 * reads them back, and the four-digit years of ISO 8601 (an offset can push 9999-12-31 into year
 * 10000, which `toISOString()` writes as `+010000-…` and no schema reads back).
 */
export const EARLIEST_INSTANT = '1970-01-01T00:00:00.000Z';
export const LATEST_INSTANT = '9999-12-31T23:59:59.999Z';
const earliestMs = Date.parse(EARLIEST_INSTANT);
const latestMs = Date.parse(LATEST_INSTANT);

/** ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`), as daemons send it, within the storable range. */
export const isoDateTime = z.iso.datetime({ offset: true }).refine(withinStorableRange, {
  message: `must lie between ${EARLIEST_INSTANT} and ${LATEST_INSTANT}`,
});

function withinStorableRange(text: string): boolean {
  // Only a first or last year can leave the range once its offset is applied: the other years
  // need no date arithmetic (this runs for every ingested item).
  const year = Number(text.slice(0, 4));
  if (year > 1970 && year < 9999) return true;
  const ms = Date.parse(text);
  return ms >= earliestMs && ms <= latestMs;
}

/**
 * What a consumer holds a record read from a topic to: its shape, not the storable domain. The edge
 * refused what no layer stores before the record was appended; a record an older edge let through
 * and the database refuses is isolated and dead-lettered by the projection runner
 * (docs/adr/0005-dead-letter-bisection.md), so the decode on every consumer's hot path pays for no
 * content check (the domain's refinements cost three times the rest of the decode).
 */
export const recordedUuid = z.uuid();
export const recordedDateTime = z.iso.datetime({ offset: true });

/**
 * A UUID in its canonical lower-case form. Postgres compares `uuid` values without regard to case,
 * but Kafka keys, partitions and JSON payloads compare text: two spellings of one session would land
 * on different partitions and meet in one upsert.
 */
export const uuid = z.uuid().overwrite((text) => text.toLowerCase());

/**
 * Text that Postgres `text` and `jsonb` store exactly as sent: no NUL (both refuse it) and no lone
 * surrogate (jsonb refuses its escape, and UTF-8 encoding would silently replace it). Added to a
 * string schema of its own limits, as the bodies whose limits a spec states in characters need.
 */
export const storable = <S extends z.ZodString>(schema: S): S => schema.check(storableCheck(Number.POSITIVE_INFINITY));

/**
 * Storable text whose length is counted in UTF-8 bytes, the unit of Postgres's own limits (a btree
 * entry holds about 2,700 bytes).
 */
export const storableText = (maxBytes: number) => z.string().check(storableCheck(maxBytes));

/**
 * The storable rules as one check, not one refinement each: every text field of every ingested item
 * runs it, and each refinement costs a pass of zod's check machinery.
 */
function storableCheck(maxBytes: number) {
  const tooLong = `must be at most ${maxBytes} bytes of UTF-8`;
  return z.check<string>((ctx) => {
    const text = ctx.value;
    const problem = text.includes('\u0000')
      ? 'must not contain the NUL character (U+0000)'
      : !text.isWellFormed()
        ? 'must be well-formed Unicode (it holds a lone surrogate)'
        : text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes
          ? tooLong
          : null;
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: text });
  });
}

/** Optional fields of daemon payloads may be absent or explicitly null: both mean "not reported". */
export const optionalString = (maxBytes: number) => storableText(maxBytes).nullish();

/**
 * Longest value of each text field, in UTF-8 bytes: three times the former limit in characters (a
 * UTF-16 unit never takes more), except `tool_name`, which keys the hourly counters' btree index.
 */
export const TEXT_LIMITS = {
  eventId: 600,
  toolName: 1024,
  argument: 49_152,
  agentId: 768,
  sessionName: 1536,
  model: 768,
  signingId: 1536,
  platform: 384,
} as const;
