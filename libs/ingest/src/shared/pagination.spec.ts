import { HttpException } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, pageRequest, parseLimit, toPage } from './pagination';

describe('keyset pagination', () => {
  it('defaults the limit and bounds it', () => {
    expect(parseLimit(undefined)).toBe(DEFAULT_PAGE_SIZE);
    expect(parseLimit('1000')).toBe(1000);
    for (const bad of ['0', '1001', '2.5', 'ten']) expect(() => parseLimit(bad)).toThrow(HttpException);
  });

  it('round-trips a cursor and refuses a tampered one', () => {
    const cursor = { at: '2026-11-01T12:00:00.000Z', id: 'abc' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(() => decodeCursor('not-a-cursor')).toThrow(HttpException);
    expect(pageRequest({})).toEqual({ limit: DEFAULT_PAGE_SIZE, after: null });
  });

  it('uses the extra row only to tell that another page exists', () => {
    const rows = [1, 2, 3].map((n) => ({ at: `2026-11-01T12:00:0${n}.000Z`, id: String(n) }));
    const full = toPage(rows, 2, (r) => r);
    expect(full.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(full.next_cursor!)).toEqual(rows[1]);
    expect(toPage(rows, 3, (r) => r).next_cursor).toBeNull();
  });
});
