import { Column, csvHeader, csvLine, ExportFormat, ndjsonLine } from './csv';

const EXPORT_PAGE_SIZE = 1000;
export const EXPORT_ROW_CAP = 100_000;

export interface Page<Row> {
  rows: Row[];
  next_cursor: string | null;
}

export interface ExportResult {
  parts: string[];
  rows: number;
  /** True when the cap stopped the export before the last page. */
  capped: boolean;
}

export interface ExportOptions<Row> {
  format: ExportFormat;
  columns: readonly Column<Row>[];
  /** One page of at most `limit` rows after `cursor` (null: the first page). */
  fetchPage: (cursor: string | null, limit: number) => Promise<Page<Row>>;
  onProgress?: (rows: number) => void;
  cap?: number;
  signal?: AbortSignal;
}

/**
 * Everything a filter matches, page after page following `next_cursor`, encoded as it arrives (the
 * text parts become one Blob), and stopped at `cap` rows so that a broad filter cannot exhaust the tab.
 */
export async function exportRows<Row>({
  format,
  columns,
  fetchPage,
  onProgress,
  cap = EXPORT_ROW_CAP,
  signal,
}: ExportOptions<Row>): Promise<ExportResult> {
  const parts: string[] = format === 'csv' ? [csvHeader(columns)] : [];
  let rows = 0;
  let cursor: string | null = null;
  do {
    signal?.throwIfAborted();
    const page: Page<Row> = await fetchPage(cursor, Math.min(EXPORT_PAGE_SIZE, cap - rows));
    const taken = page.rows.slice(0, cap - rows);
    parts.push(taken.map((row) => (format === 'csv' ? csvLine(columns, row) : ndjsonLine(row))).join(''));
    rows += taken.length;
    cursor = page.next_cursor;
    onProgress?.(rows);
    if (rows >= cap && (cursor !== null || taken.length < page.rows.length)) return { parts, rows, capped: true };
  } while (cursor !== null);
  return { parts, rows, capped: false };
}
