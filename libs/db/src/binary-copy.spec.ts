import { binaryCopyRows } from './binary-copy';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

describe("binaryCopyRows: rows in COPY's binary format", () => {
  it('writes the signature, each row as its field count and length-prefixed fields, and the trailer', () => {
    const data = binaryCopyRows(
      ['uuid', 'text', 'int4', 'jsonb', 'timestamptz'],
      [['00000000-0000-4000-8000-0000000000ff', 'é\t\\N', 7, '[1]', '2000-01-01T00:00:01.000002Z']],
    );
    const expected = Buffer.concat([
      SIGNATURE,
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]), // flags, header extension length
      Buffer.from([0, 5]), // five fields
      Buffer.from([0, 0, 0, 16, ...new Array(15).fill(0).map((_, i) => (i === 6 ? 0x40 : i === 8 ? 0x80 : 0)), 0xff]),
      Buffer.from([0, 0, 0, 5]),
      Buffer.from('é\t\\N', 'utf8'), // no escaping in binary
      Buffer.from([0, 0, 0, 4, 0, 0, 0, 7]),
      Buffer.from([0, 0, 0, 4, 1]), // jsonb: its version byte, then the text
      Buffer.from('[1]'),
      Buffer.from([0, 0, 0, 8, 0, 0, 0, 0, 0, 0x0f, 0x42, 0x42]), // 1,000,002 µs after 2000-01-01
      Buffer.from([0xff, 0xff]),
    ]);
    expect(data?.toString('hex')).toBe(expected.toString('hex'));
  });

  it('writes null and undefined as length -1, in any column', () => {
    const data = binaryCopyRows(['uuid', 'text'], [[null, undefined]]);
    expect(data?.subarray(19).toString('hex')).toBe('0002ffffffffffffffffffff');
  });

  it('gives null for a value with no exact binary form, so the rows are written another way', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(binaryCopyRows(['uuid'], [[id], ['{00000000-0000-4000-8000-000000000001}']])).toBeNull();
    expect(binaryCopyRows(['timestamptz'], [['2026-11-01 12:00:00+00']])).toBeNull();
    expect(binaryCopyRows(['int4'], [[2 ** 31]])).toBeNull();
    expect(binaryCopyRows(['int4'], [[1.5]])).toBeNull();
    expect(binaryCopyRows(['uuid', 'int4'], [[id, 1]])).not.toBeNull();
  });

  it('writes no row for an empty batch, only the signature and the trailer', () => {
    expect(binaryCopyRows(['text'], [])?.length).toBe(SIGNATURE.length + 8 + 2);
  });
});
