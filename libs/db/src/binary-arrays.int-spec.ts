import { DataSource } from 'typeorm';
import {
  boolArray,
  float4Array,
  int2Array,
  int4Array,
  jsonArray,
  PgArray,
  textArray,
  timestamptzArray,
  uuidArray,
} from './binary-arrays';
import { databaseConfigFromEnv } from './database.config';

// Each binary array must reach Postgres as exactly the array the driver's text form gives.
describe('binary arrays in Postgres', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().projectorUrl }).initialize();
  });

  afterAll(async () => {
    await db?.destroy();
  });

  // Compared in their text output, which is exact for every type here (json has no equality).
  const roundTrip = async (type: string, encoded: PgArray, values: unknown[]) => {
    const [row] = await db.query(`SELECT $1::${type}[]::text AS binary, $2::${type}[]::text AS text`, [
      encoded,
      values,
    ]);
    return row as { binary: string; text: string };
  };

  const cases: [string, (values: never[]) => PgArray, unknown[]][] = [
    ['uuid', uuidArray, ['00112233-4455-6677-8899-aabbccddeeff', null, 'FFFFFFFF-0000-4000-8000-00000000000A']],
    ['text', textArray, ['plain', '', null, 'naïve — 日本語 🙂', 'quote " and \\ and {braces}, commas', 'NULL']],
    ['json', jsonArray, ['[]', '{"a":[1,2.5,"ü"]}', null, '"x"', JSON.stringify({ reason: 'Zürich 🙂' })]],
    ['smallint', int2Array, [0, 100, -32768, 32767, null]],
    ['integer', int4Array, [0, -2147483648, 2147483647, null, 45]],
    ['real', float4Array, [0.5, 0.7, 0.9, 0.95, 0, null, -1.25, 1e-8]],
    ['boolean', boolArray, [true, false, null]],
    [
      'timestamptz',
      timestamptzArray,
      [
        '2026-11-01T12:00:00Z',
        '2026-11-01T12:00:00.123Z',
        '2026-11-01T12:00:00.123456Z',
        '2026-11-01T12:00:00.1234565Z',
        '2026-11-01T12:00:00.9999996Z',
        '2026-11-01T12:00Z',
        '2026-11-01T13:30:00.5+01:30',
        '1970-01-01T00:00:00.000Z',
        '1999-12-31T23:59:59.999999Z',
        '2400-02-29T00:00:00Z',
        '9999-12-31T23:59:59.999999Z',
        null,
      ],
    ],
  ];

  it.each(cases)('%s: the same array as its text form, nulls included', async (type, encode, values) => {
    const encoded = encode(values as never[]);
    expect(Buffer.isBuffer(encoded)).toBe(true);
    const row = await roundTrip(type, encoded, values);
    expect(row.binary).toBe(row.text);
    expect(row.binary).not.toBe('{}');
  });

  it.each(cases)('%s: an empty array', async (type, encode) => {
    const row = await roundTrip(type, encode([]), []);
    expect(row).toEqual({ binary: '{}', text: '{}' });
  });

  it('agrees with Postgres on thousands of generated UUIDs and instants', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const instants = Array.from({ length: 5000 }, () => {
      const seconds = random(4) === 0 ? '' : `:${pad(random(60), 2)}`;
      const fraction = seconds && random(2) ? `.${pad(random(10 ** 9), 9).slice(0, 1 + random(9))}` : '';
      const offset = random(3) === 0 ? 'Z' : `${random(2) ? '+' : '-'}${pad(random(15), 2)}:${pad(random(60), 2)}`;
      const date = `${1970 + random(8030)}-${pad(1 + random(12), 2)}-${pad(1 + random(28), 2)}`;
      return `${date}T${pad(random(24), 2)}:${pad(random(60), 2)}${seconds}${fraction}${offset}`;
    });
    const hex = '0123456789abcdefABCDEF';
    const uuids = Array.from({ length: 5000 }, () =>
      [8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, () => hex[random(22)]).join('')).join('-'),
    );
    for (const [type, encoded, values] of [
      ['timestamptz', timestamptzArray(instants), instants],
      ['uuid', uuidArray(uuids), uuids],
    ] as const) {
      expect(Buffer.isBuffer(encoded)).toBe(true);
      const row = await roundTrip(type, encoded, values);
      expect(row.binary).toBe(row.text);
    }
  });

  it('reads instants only Postgres can parse as text, as before', async () => {
    const values = ['2026-11-01T24:00:00Z', '2026-11-01T12:00:00Z'];
    const encoded = timestamptzArray(values);
    expect(Buffer.isBuffer(encoded)).toBe(false);
    const row = await roundTrip('timestamptz', encoded, values);
    expect(row.binary).toBe(row.text);
  });

  it('feeds unnest with the casts of a batch INSERT', async () => {
    const rows = await db.query(
      'SELECT * FROM unnest($1::uuid[], $2::text[], $3::json[], $4::timestamptz[]) AS t(id, label, doc, at)',
      [
        uuidArray(['00112233-4455-6677-8899-aabbccddeeff', null]),
        textArray(['ä', null]),
        jsonArray(['{"k":1}', '[]']),
        timestamptzArray(['2026-11-01T12:00:00.5Z', null]),
      ],
    );
    expect(rows).toEqual([
      { id: '00112233-4455-6677-8899-aabbccddeeff', label: 'ä', doc: { k: 1 }, at: new Date('2026-11-01T12:00:00.5Z') },
      { id: null, label: null, doc: [], at: null },
    ]);
  });
});
