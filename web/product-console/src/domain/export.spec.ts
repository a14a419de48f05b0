/// <reference types="jest" />
import { exportRows, Page } from './export';

interface Row {
  id: number;
}

const columns = [{ header: 'id', value: (row: Row) => row.id }];

/** A keyset source of `total` rows: the cursor is the last id handed out. */
function source(total: number) {
  const calls: { cursor: string | null; limit: number }[] = [];
  const fetchPage = async (cursor: string | null, limit: number): Promise<Page<Row>> => {
    calls.push({ cursor, limit });
    const start = cursor === null ? 0 : Number(cursor);
    const rows = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({ id: start + i }));
    const end = start + rows.length;
    return { rows, next_cursor: end < total ? String(end) : null };
  };
  return { calls, fetchPage };
}

describe('exportRows', () => {
  it('follows next_cursor to the last page', async () => {
    const { calls, fetchPage } = source(2500);
    const result = await exportRows({ format: 'csv', columns, fetchPage });
    expect(result.rows).toBe(2500);
    expect(result.capped).toBe(false);
    expect(calls.map((c) => c.cursor)).toEqual([null, '1000', '2000']);
    expect(calls.every((c) => c.limit === 1000)).toBe(true);
    const text = result.parts.join('');
    expect(text.startsWith('id\r\n0\r\n1\r\n')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(2502);
  });

  it('writes one JSON document a line as NDJSON, without a header', async () => {
    const { fetchPage } = source(2);
    const result = await exportRows({ format: 'ndjson', columns, fetchPage });
    expect(result.parts.join('')).toBe('{"id":0}\n{"id":1}\n');
  });

  it('stops at the cap and says so', async () => {
    const { calls, fetchPage } = source(5000);
    const progress: number[] = [];
    const result = await exportRows({
      format: 'csv',
      columns,
      fetchPage,
      cap: 2500,
      onProgress: (n) => progress.push(n),
    });
    expect(result).toMatchObject({ rows: 2500, capped: true });
    expect(calls.map((c) => c.limit)).toEqual([1000, 1000, 500]);
    expect(progress).toEqual([1000, 2000, 2500]);
  });

  it('is not capped when the matches end exactly at the cap', async () => {
    const { fetchPage } = source(2000);
    const result = await exportRows({ format: 'csv', columns, fetchPage, cap: 2000 });
    expect(result).toMatchObject({ rows: 2000, capped: false });
  });

  it('exports an empty match as the header alone', async () => {
    const { fetchPage } = source(0);
    const result = await exportRows({ format: 'csv', columns, fetchPage });
    expect(result).toMatchObject({ rows: 0, capped: false });
    expect(result.parts.join('')).toBe('id\r\n');
  });

  it('stops when aborted', async () => {
    const { fetchPage } = source(5000);
    const controller = new AbortController();
    const run = exportRows({
      format: 'csv',
      columns,
      fetchPage,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(run).rejects.toThrow();
  });
});
