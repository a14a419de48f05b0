import { HttpException } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, pageRequest, parseLimit, toPage } from './pagination';

const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const ID = '0190c2d4-7b1e-7a3c-9f00-123456789abc';

describe('keyset pagination', () => {
  it('defaults the limit and bounds it', () => {
    expect(parseLimit(undefined)).toBe(DEFAULT_PAGE_SIZE);
    expect(parseLimit('1000')).toBe(1000);
    for (const bad of ['0', '1001', '2.5', 'ten', ['1', '2']]) expect(() => parseLimit(bad)).toThrow(HttpException);
  });

  it('round-trips a cursor, also at the ends of the range PostgreSQL stores', () => {
    for (const at of ['2026-11-01T12:00:00.000Z', '+010000-01-01T00:00:00.000Z', '-004000-06-01T00:00:00.000Z']) {
      const cursor = { at: new Date(at), id: ID };
      expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    }
    expect(decodeCursor(encodeCursor({ at: new Date(0), id: 'claude-code' }), 'text')?.id).toBe('claude-code');
    expect(pageRequest({})).toEqual({ limit: DEFAULT_PAGE_SIZE, after: null });
  });

  it('round-trips the cursor of every agent id the ingest domain stores, the longest included', () => {
    const at = new Date('2026-11-01T12:00:00.000Z');
    for (const id of ['a'.repeat(768), '🙂'.repeat(192), 'agent \u202e x']) {
      expect(decodeCursor(encodeCursor({ at, id }), 'text')).toEqual({ at, id });
    }
  });

  it('refuses every forged cursor with the same 400', () => {
    const forged = [
      'not a cursor!',
      ['a', 'b'],
      forge({ at: '2026-11-01T12:00:00.000Z', id: ID }),
      forge(['2026-11-01T12:00:00.000Z']),
      forge(['2026-11-01T12:00:00.000Z', ID, 'extra']),
      forge([1, ID]),
      forge(['2026-02-30T12:00:00.000Z', ID]),
      forge(['2026-11-01', ID]),
      forge(['-271821-04-20T00:00:00.000Z', ID]),
      forge(['2026-11-01T12:00:00.000Z', 'not-a-uuid']),
      forge(['2026-11-01T12:00:00.000Z', 42]),
      `${Buffer.from('[').toString('base64url')}`,
    ];
    for (const raw of forged) {
      let thrown: unknown;
      try {
        decodeCursor(raw);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(HttpException);
      expect((thrown as HttpException).getStatus()).toBe(400);
      expect((thrown as HttpException).getResponse()).toEqual({ error: 'Invalid cursor' });
    }
    expect(() => decodeCursor(forge(['2026-11-01T12:00:00.000Z', 'a\u0000b']), 'text')).toThrow(HttpException);
    expect(() => decodeCursor(forge(['2026-11-01T12:00:00.000Z', 'x'.repeat(769)]), 'text')).toThrow(HttpException);
  });

  it('uses the extra row only to tell that another page exists', () => {
    const rows = [1, 2, 3].map((n) => ({
      at: new Date(`2026-11-01T12:00:0${n}.000Z`),
      id: ID.replace('c', String(n)),
    }));
    const full = toPage(rows, 2, (r) => r);
    expect(full.items).toEqual(rows.slice(0, 2));
    expect(decodeCursor(full.next_cursor!)).toEqual(rows[1]);
    expect(toPage(rows, 3, (r) => r).next_cursor).toBeNull();
  });
});
