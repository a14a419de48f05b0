import { postgresMicros, writeInt64, writeUuid } from './binary-arrays';

/** The column types a binary COPY here can write, and what each value is given as. */
export type CopyType = 'uuid' | 'text' | 'jsonb' | 'timestamptz' | 'int4';

/**
 * A row's value for its column: UUIDs and instants as their text (hyphenated UUID, ISO 8601), JSON
 * already serialized, numbers as numbers; null or undefined for SQL NULL.
 */
export type CopyValue = string | number | null | undefined;

// "PGCOPY\n\xff\r\n\0", the flags (no OIDs) and the header extension's length (none).
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER = SIGNATURE.length + 8;
const TRAILER = 2;
const JSONB_VERSION = 1;

/** The most bytes a value's field (length word and data) can take. */
function roomFor(type: CopyType, value: CopyValue): number {
  if (value === null || value === undefined) return 4;
  switch (type) {
    case 'uuid':
      return 4 + 16;
    case 'timestamptz':
      return 4 + 8;
    case 'int4':
      return 4 + 4;
    default:
      // UTF-8 takes at most three bytes per UTF-16 unit; jsonb adds its version byte.
      return 4 + 1 + String(value).length * 3;
  }
}

// The last instant read: the rows of one ingest request share their received_at, often their timestamp.
let lastInstant = '';
let lastMicros: number | bigint | null = null;
function microsOf(text: string): number | bigint | null {
  if (text !== lastInstant) {
    lastMicros = postgresMicros(text);
    lastInstant = text;
  }
  return lastMicros;
}

/** Writes one field at `at`; the offset after it, or -1 when the value has no exact binary form here. */
function writeField(out: Buffer, at: number, type: CopyType, value: CopyValue): number {
  if (value === null || value === undefined) {
    out.writeInt32BE(-1, at);
    return at + 4;
  }
  switch (type) {
    case 'uuid':
      if (typeof value !== 'string' || !writeUuid(out, at + 4, value)) return -1;
      out.writeInt32BE(16, at);
      return at + 20;
    case 'timestamptz': {
      const micros = typeof value === 'string' ? microsOf(value) : null;
      if (micros === null) return -1;
      out.writeInt32BE(8, at);
      writeInt64(out, at + 4, micros);
      return at + 12;
    }
    case 'int4':
      if (!Number.isInteger(value) || (value as number) < -2147483648 || (value as number) > 2147483647) return -1;
      out.writeInt32BE(4, at);
      out.writeInt32BE(value as number, at + 4);
      return at + 8;
    case 'jsonb': {
      out[at + 4] = JSONB_VERSION;
      const written = out.write(String(value), at + 5, 'utf8');
      out.writeInt32BE(written + 1, at);
      return at + 5 + written;
    }
    default: {
      const written = out.write(String(value), at + 4, 'utf8');
      out.writeInt32BE(written, at);
      return at + 4 + written;
    }
  }
}

/**
 * Rows in COPY's binary format (`COPY … FROM STDIN WITH (FORMAT binary)`): Postgres reads each
 * field with its type's binary receive function, not its text parser, and nothing is escaped. Null
 * when a value has no exact binary form here (a UUID or instant spelled in a way only Postgres's own
 * parser reads, a number outside int4): the caller writes those rows another way.
 */
export function binaryCopyRows(types: readonly CopyType[], rows: readonly (readonly CopyValue[])[]): Buffer | null {
  let room = HEADER + TRAILER;
  for (const row of rows) {
    room += 2;
    for (let i = 0; i < types.length; i++) room += roomFor(types[i], row[i]);
  }
  const out = Buffer.allocUnsafe(room);
  SIGNATURE.copy(out, 0);
  out.writeInt32BE(0, SIGNATURE.length);
  out.writeInt32BE(0, SIGNATURE.length + 4);
  let at = HEADER;
  for (const row of rows) {
    out.writeInt16BE(types.length, at);
    at += 2;
    for (let i = 0; i < types.length; i++) {
      at = writeField(out, at, types[i], row[i]);
      if (at < 0) return null;
    }
  }
  out.writeInt16BE(-1, at);
  return out.subarray(0, at + TRAILER);
}
