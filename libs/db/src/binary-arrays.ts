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

/** Text-like elements (`text`, `json`): their UTF-8 bytes, which is what `textrecv` and `json_recv` read. */
function utf8(oid: number, values: readonly (string | null | undefined)[]): Buffer {
  let size = headerSize(values.length);
  let hasNull = false;
  const lengths = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      hasNull = true;
      lengths[i] = -1;
      size += 4;
    } else {
      // Strings of one-byte characters are the common case; byteLength is exact either way.
      lengths[i] = Buffer.byteLength(v, 'utf8');
      size += 4 + lengths[i];
    }
  }
  const out = header(size, oid, values.length, hasNull);
  let at = headerSize(values.length);
  for (let i = 0; i < values.length; i++) {
    out.writeInt32BE(lengths[i], at);
    at += 4;
    if (lengths[i] > 0) at += out.write(values[i] as string, at, lengths[i], 'utf8');
  }
  return out;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUIDs in their hyphenated 36-character form (upper or lower case) as their 16 bytes. */
export function uuidArray(values: readonly (string | null | undefined)[]): PgArray {
  if (!values.every((v) => v === null || v === undefined || UUID.test(v))) return [...values];
  return fixed(OID.uuid, 16, values, (out, at, v) => {
    out.write(v.slice(0, 8), at, 4, 'hex');
    out.write(v.slice(9, 13), at + 4, 2, 'hex');
    out.write(v.slice(14, 18), at + 6, 2, 'hex');
    out.write(v.slice(19, 23), at + 8, 2, 'hex');
    out.write(v.slice(24, 36), at + 10, 6, 'hex');
  });
}

// ISO 8601 as the contracts accept it: seconds optional, any number of fractional digits, Z or ±hh:mm.
const ISO_INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?(?:\.(\d+))?(?:Z|([+-])(\d\d):(\d\d))$/;
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_TO_32 = 2 ** 32;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Round half to even, as Postgres's `rint` rounds a fraction of a second to microseconds. */
function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * Microseconds since 2000-01-01 (Postgres's `timestamptz` on the wire) of an ISO instant, or null
 * when the text is outside the plain form above and years 1000–9999. JavaScript's date parser
 * rolls 02-30 over into March where Postgres refuses it, and Postgres reads 24:00 and :60, so
 * the fields are checked here and the rare other spellings are left to Postgres's own parser.
 * The fraction is rounded to microseconds as Postgres rounds it.
 */
export function postgresMicros(text: string): number | bigint | null {
  const m = ISO_INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || Number(m[9]) > 14 || Number(m[10]) > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000;
  const fraction = m[7] === undefined ? 0 : rint(Number(`0.${m[7]}`) * 1e6);
  const micros = (ms - POSTGRES_EPOCH_MS) * 1000 + fraction;
  return Number.isSafeInteger(micros) ? micros : BigInt(ms - POSTGRES_EPOCH_MS) * 1000n + BigInt(fraction);
}

function writeInt64(out: Buffer, at: number, value: number | bigint): void {
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
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) micros[i] = null;
    else {
      const parsed = postgresMicros(v);
      if (parsed === null) return [...values];
      micros[i] = parsed;
    }
  }
  return fixed(OID.timestamptz, 8, micros, writeInt64);
}
