/**
 * One-dimensional Postgres arrays in the binary format `array_recv` reads. node-pg sends a Buffer
 * parameter as binary, so `unnest($1::uuid[])` then skips `array_in` and the per-element text
 * parsers, which dominated Postgres's CPU in a batch INSERT … SELECT FROM unnest(…).
 *
 * Each encoder returns the values unchanged when one of them has no exact binary form here (a UUID
 * or instant spelled in a way only Postgres's own parser reads, a number its column type would
 * refuse): the driver then sends them as text, and Postgres parses or refuses them as before.
 */
export type PgArray = Buffer | unknown[];

/** Element type OIDs (pg_type.oid); `array_recv` refuses an array whose OID differs from the cast's. */
const OID = { bool: 16, int2: 21, int4: 23, text: 25, json: 114, float4: 700, timestamptz: 1184, uuid: 2950 };

// ndim, has-null flag, element OID, then one (size, lower bound) pair: 20 bytes.
const HEADER = 20;
const EMPTY_HEADER = 12;

function header(size: number, oid: number, count: number, hasNull: boolean): Buffer {
  const out = Buffer.allocUnsafe(size);
  if (count === 0) {
    out.writeInt32BE(0, 0);
    out.writeInt32BE(0, 4);
    out.writeInt32BE(oid, 8);
    return out;
  }
  out.writeInt32BE(1, 0);
  out.writeInt32BE(hasNull ? 1 : 0, 4);
  out.writeInt32BE(oid, 8);
  out.writeInt32BE(count, 12);
  out.writeInt32BE(1, 16);
  return out;
}

const headerSize = (count: number) => (count === 0 ? EMPTY_HEADER : HEADER);

/** Fixed-width elements: each is a 4-byte length and `width` bytes that `write` fills. */
function fixed<T>(
  oid: number,
  width: number,
  values: readonly (T | null | undefined)[],
  write: (out: Buffer, at: number, value: T) => void,
): Buffer {
  let nulls = 0;
  for (const v of values) if (v === null || v === undefined) nulls++;
  const size = headerSize(values.length) + values.length * 4 + (values.length - nulls) * width;
  const out = header(size, oid, values.length, nulls > 0);
  let at = headerSize(values.length);
  for (const v of values) {
    if (v === null || v === undefined) {
      out.writeInt32BE(-1, at);
      at += 4;
    } else {
      out.writeInt32BE(width, at);
      write(out, at + 4, v);
      at += 4 + width;
    }
  }
  return out;
}

/**
 * Text-like elements (`text`, `json`): their UTF-8 bytes, which is what `textrecv` and `json_recv`
 * read. Written in one pass into room for the worst case (three bytes per UTF-16 unit), each
 * length filled in after its string: measuring each string first would cost as much again.
 */
function utf8(oid: number, values: readonly (string | null | undefined)[]): Buffer {
  let room = headerSize(values.length);
  let hasNull = false;
  for (const v of values) {
    if (v === null || v === undefined) hasNull = true;
    room += 4 + (v ? v.length * 3 : 0);
  }
  const out = header(room, oid, values.length, hasNull);
  let at = headerSize(values.length);
  for (const v of values) {
    if (v === null || v === undefined) {
      out.writeInt32BE(-1, at);
      at += 4;
    } else {
      const written = v.length === 0 ? 0 : out.write(v, at + 4, 'utf8');
      out.writeInt32BE(written, at);
      at += 4 + written;
    }
  }
  return out.subarray(0, at);
}

export const textArray = (values: readonly (string | null | undefined)[]): PgArray => utf8(OID.text, values);

/** JSON documents already serialized (JSON.stringify): `json` stores the text as sent. */
export const jsonArray = (values: readonly (string | null | undefined)[]): PgArray => utf8(OID.json, values);

export const boolArray = (values: readonly (boolean | null | undefined)[]): PgArray =>
  fixed(OID.bool, 1, values, (out, at, v) => out.writeUInt8(v ? 1 : 0, at));

const allIntegersIn = (values: readonly (number | null | undefined)[], min: number, max: number) =>
  values.every((v) => v === null || v === undefined || (Number.isInteger(v) && v >= min && v <= max));

export const int2Array = (values: readonly (number | null | undefined)[]): PgArray =>
  allIntegersIn(values, -32768, 32767)
    ? fixed(OID.int2, 2, values, (out, at, v) => out.writeInt16BE(v, at))
    : [...values];

export const int4Array = (values: readonly (number | null | undefined)[]): PgArray =>
  allIntegersIn(values, -2147483648, 2147483647)
    ? fixed(OID.int4, 4, values, (out, at, v) => out.writeInt32BE(v, at))
    : [...values];

/** `real`: the double rounded to the nearest float, as `float4in` rounds the decimal the driver would send. */
export const float4Array = (values: readonly (number | null | undefined)[]): PgArray =>
  fixed(OID.float4, 4, values, (out, at, v) => out.writeFloatBE(v, at));

// Hex digit values by character code (-1: not a hex digit), and where each of a UUID's 16 bytes starts
// in its 36-character form. Decoded by hand: a regex test and a Buffer.write per group cost more
// than the driver's whole text serialization of the UUID.
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 16; c++) {
  HEX['0123456789abcdef'.charCodeAt(c)] = c;
  HEX['0123456789ABCDEF'.charCodeAt(c)] = c;
}
const UUID_BYTES = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const hexAt = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? HEX[c] : -1;
};

/** Writes a hyphenated 36-character UUID's 16 bytes; false when the text is not one. */
export function writeUuid(out: Buffer, at: number, text: string): boolean {
  if (text.length !== 36) return false;
  const dash = 45;
  if (text.charCodeAt(8) !== dash || text.charCodeAt(13) !== dash || text.charCodeAt(18) !== dash) return false;
  if (text.charCodeAt(23) !== dash) return false;
  for (let b = 0; b < 16; b++) {
    const high = hexAt(text, UUID_BYTES[b]);
    const low = hexAt(text, UUID_BYTES[b] + 1);
    if ((high | low) < 0) return false;
    out[at + b] = (high << 4) | low;
  }
  return true;
}

/** UUIDs in their hyphenated 36-character form (upper or lower case) as their 16 bytes. */
export function uuidArray(values: readonly (string | null | undefined)[]): PgArray {
  let readable = true;
  const out = fixed(OID.uuid, 16, values, (buffer, at, v) => {
    readable = writeUuid(buffer, at, v) && readable;
  });
  return readable ? out : [...values];
}

const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_TO_32 = 2 ** 32;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1];

/** The decimal digit at `i`, NaN when there is none (NaN then fails every range check below). */
const digitAt = (text: string, i: number) => {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
};
const twoDigitsAt = (text: string, i: number) => digitAt(text, i) * 10 + digitAt(text, i + 1);

/** Round half to even, as Postgres's `rint` rounds a fraction of a second to microseconds. */
function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * Microseconds since 2000-01-01 (Postgres's `timestamptz` on the wire) of an ISO 8601 instant as
 * the contracts accept it (`YYYY-MM-DDTHH:MM[:SS[.fraction]]` then `Z` or `±HH:MM`), or null for
 * any other text and for years before 1000. JavaScript's date parser rolls 02-30 over into March
 * where Postgres refuses it, and Postgres reads 24:00 and :60, so the fields are checked here and
 * the rare other spellings are left to Postgres's own parser. The fraction is rounded to
 * microseconds as Postgres rounds it (strtod, then rint).
 */
export function postgresMicros(text: string): number | bigint | null {
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84) return null;
  if (text.charCodeAt(13) !== 58) return null;
  const year = twoDigitsAt(text, 0) * 100 + twoDigitsAt(text, 2);
  const month = twoDigitsAt(text, 5);
  const day = twoDigitsAt(text, 8);
  const hour = twoDigitsAt(text, 11);
  const minute = twoDigitsAt(text, 14);
  let i = 16;
  let second = 0;
  if (text.charCodeAt(i) === 58) {
    second = twoDigitsAt(text, i + 1);
    i += 3;
  }
  let fraction = 0;
  // A fraction without seconds (`12:00.5`) Postgres reads as minutes and seconds: left to it.
  if (text.charCodeAt(i) === 46 && i === 19) {
    const start = ++i;
    while (digitAt(text, i) >= 0) i++;
    const digits = text.slice(start, i);
    if (digits.length === 0) return null;
    // Up to six digits the rounding is exact; beyond, strtod's double is what Postgres rounds.
    fraction = digits.length <= 6 ? Number(digits) * 10 ** (6 - digits.length) : rint(Number(`0.${digits}`) * 1e6);
  }
  let offsetMinutes = 0;
  const sign = text.charCodeAt(i);
  if (sign === 43 || sign === 45) {
    const hours = twoDigitsAt(text, i + 1);
    const minutes = twoDigitsAt(text, i + 4);
    if (text.length !== i + 6 || text.charCodeAt(i + 3) !== 58 || !(hours <= 14 && minutes <= 59)) return null;
    offsetMinutes = (sign === 45 ? -1 : 1) * (hours * 60 + minutes);
  } else if (sign !== 90 || text.length !== i + 1) return null;
  const valid =
    year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59;
  if (!valid || !(second <= 59)) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000 - POSTGRES_EPOCH_MS;
  const micros = ms * 1000 + fraction;
  return Number.isSafeInteger(micros) ? micros : BigInt(ms) * 1000n + BigInt(fraction);
}

export function writeInt64(out: Buffer, at: number, value: number | bigint): void {
  if (typeof value === 'bigint') {
    out.writeBigInt64BE(value, at);
    return;
  }
  const high = Math.floor(value / TWO_TO_32);
  out.writeInt32BE(high, at);
  out.writeUInt32BE(value - high * TWO_TO_32, at + 4);
}

/** Instants given as ISO 8601 text (see postgresMicros). */
export function timestamptzArray(values: readonly (string | null | undefined)[]): PgArray {
  const micros = new Array<number | bigint | null>(values.length);
  // A batch's rows share one scored_at: parsed once.
  let last: string | null = null;
  let lastMicros: number | bigint | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) micros[i] = null;
    else {
      if (v !== last) {
        lastMicros = postgresMicros(v);
        if (lastMicros === null) return [...values];
        last = v;
      }
      micros[i] = lastMicros;
    }
  }
  return fixed(OID.timestamptz, 8, micros, writeInt64);
}
