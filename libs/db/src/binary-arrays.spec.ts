import {
  boolArray,
  int2Array,
  int4Array,
  postgresMicros,
  textArray,
  timestamptzArray,
  uuidArray,
} from './binary-arrays';

const int32s = (buffer: unknown, count: number) =>
  Array.from({ length: count }, (_, i) => (buffer as Buffer).readInt32BE(i * 4));

describe('binary arrays', () => {
  it('writes the array_recv header: one dimension, the null flag, the element OID, size and lower bound', () => {
    expect(int32s(boolArray([true, null]), 5)).toEqual([1, 1, 16, 2, 1]);
    expect(int32s(int4Array([7]), 7)).toEqual([1, 0, 23, 1, 1, 4, 7]);
  });

  it('writes an empty array without dimensions', () => {
    expect(int32s(textArray([]), 3)).toEqual([0, 0, 25]);
    expect((textArray([]) as Buffer).length).toBe(12);
  });

  it('gives a null element the length -1 and no bytes', () => {
    const buffer = textArray(['é', null, '']) as Buffer;
    expect(int32s(buffer.subarray(20), 1)).toEqual([2]);
    expect(buffer.subarray(24, 26).toString('utf8')).toBe('é');
    expect(int32s(buffer.subarray(26), 2)).toEqual([-1, 0]);
    expect(buffer.length).toBe(34);
  });

  it('writes a UUID as its 16 bytes, whatever the case of its digits', () => {
    const buffer = uuidArray(['00112233-4455-6677-8899-AABBCCDDEEFF']) as Buffer;
    expect(buffer.subarray(24).toString('hex')).toBe('00112233445566778899aabbccddeeff');
  });

  it('leaves values without an exact binary form to the driver as text', () => {
    expect(uuidArray(['{00112233-4455-6677-8899-aabbccddeeff}'])).toEqual(['{00112233-4455-6677-8899-aabbccddeeff}']);
    expect(int2Array([1, 40000])).toEqual([1, 40000]);
    expect(int4Array([1.5, null])).toEqual([1.5, null]);
    expect(Buffer.isBuffer(int2Array([-32768, 32767, null]))).toBe(true);
  });

  it('counts microseconds from 2000-01-01 and rounds a longer fraction half to even, as Postgres does', () => {
    expect(postgresMicros('2000-01-01T00:00:00Z')).toBe(0);
    expect(postgresMicros('2000-01-01T01:00:00.000001+01:00')).toBe(1);
    expect(postgresMicros('1999-12-31T23:59Z')).toBe(-60_000_000);
    expect(postgresMicros('2000-01-01T00:00:00.0000005Z')).toBe(0);
    expect(postgresMicros('2000-01-01T00:00:00.0000015Z')).toBe(2);
    expect(postgresMicros('2000-01-01T00:00:00.9999996Z')).toBe(1_000_000);
    // Beyond 2^53 microseconds (year 2285 onwards) the count is a bigint.
    expect(postgresMicros('9999-12-31T23:59:59.999999Z')).toBe(252_455_615_999_999_999n);
  });

  it('leaves instants that JavaScript and Postgres read differently to Postgres', () => {
    for (const text of [
      '2026-02-30T00:00:00Z', // Date.UTC rolls it over into March; Postgres refuses it
      '2026-11-01T24:00:00Z',
      '2026-11-01T23:59:60Z',
      '0999-01-01T00:00:00Z',
      '2026-11-01 12:00:00Z',
      '2026-11-01T12:00:00',
      '2026-11-01T12:00.5Z',
      '2026-11-01T12:00:00.Z',
      '2026-11-01T12:00:00+15:00',
      '2026-11-01T12:00:00+01:00x',
    ]) {
      expect(postgresMicros(text)).toBeNull();
    }
    expect(timestamptzArray(['2026-11-01T12:00:00Z', '2026-02-30T00:00:00Z', null])).toEqual([
      '2026-11-01T12:00:00Z',
      '2026-02-30T00:00:00Z',
      null,
    ]);
  });
});
