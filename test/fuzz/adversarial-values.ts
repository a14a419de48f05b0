import fc from 'fast-check';

/**
 * Value pools of the route fuzzer: what a careless or hostile client sends where a number, a date,
 * a cursor or an id is expected. Every value is ASCII-safe once percent-encoded.
 */

export const NUMBERS = [
  '0',
  '1',
  '-1',
  '100',
  '1000',
  '1001',
  '1.5',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e3',
  '1e309',
  '9007199254740993',
  '99999999999999999999999',
  '0x10',
  ' 5',
  '5abc',
  '',
];

export const DATES = [
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-10-01',
  '2026-10-01T08:00:00+14:00',
  '2026-10-01T08:00:00.123456789Z',
  'yesterday',
  '0',
  '',
];

export const BOOLEANS = ['true', 'false', 'TRUE', '1', 'yes', ''];

/** Raw path segments, sent without further encoding. */
export const SEGMENTS = [
  '%00',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%zz',
  '%ff',
  '%C0%AE',
  'null',
  'undefined',
  '0',
  '-1',
  '%20',
  '%E2%80%AE',
  "'%20OR%20'1'%3D'1",
  '%24%7Bjndi%7D',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000000000000000000000000000',
  '{id}',
];

/** JSON values dropped into schema-shaped bodies in place of what the schema asks for. */
export const JSON_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  ' ',
  '\u0000',
  'a'.repeat(20_000),
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '\\',
  '../../etc/passwd',
  '%00',
  '\u202e\u200b',
  '🙂'.repeat(300),
  [],
  {},
  [[[]]],
  { $gt: '' },
  'NaN',
];

/** Whole bodies that are not one well-formed JSON document, or are one of an unexpected shape. */
export const RAW_BODIES: (string | Buffer)[] = [
  '',
  ' ',
  'null',
  '[]',
  '"text"',
  '0',
  'true',
  '{',
  '{"a":1}{"b":2}',
  '{} {}',
  '{"a":1} trailing',
  '{"name":"a","name":1}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\ufeff{}',
  'name=x&events=1',
  '<xml/>',
  Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]),
];

export const deepNesting = fc
  .oneof(fc.integer({ min: 2, max: 2_000 }), fc.integer({ min: 2, max: 200_000 }))
  .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Strings of any script, emoji and combining marks included (never lone surrogates: they cannot be encoded). */
export const unicodeText = (maxLength = 40) => fc.string({ unit: 'grapheme', maxLength });

export const longText = fc.integer({ min: 101, max: 4_000 }).map((n) => 'a'.repeat(n));

export const adversarialJson = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...JSON_VALUES) },
  { weight: 1, arbitrary: unicodeText() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

/** An opaque pagination cursor as a client could forge it: base64url JSON of the wrong shape or values. */
export const forgedCursor = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('null', 'e30', 'W10', '%00', 'not-a-cursor') },
  { weight: 1, arbitrary: fc.base64String({ maxLength: 40 }) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom(...DATES), fc.integer(), fc.constant(null)),
        fc.oneof(fc.constantFrom('x', '', "'", '1', ...SEGMENTS), fc.uuid(), fc.integer()),
      )
      .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
  },
);

/** Upper-case spelling of an id: the same resource to a case-insensitive reader, another string to others. */
export const upper = (value: string) => value.toUpperCase();
