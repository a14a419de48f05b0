/** A column of an export: its header and how to read it from a row. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
}

// A spreadsheet runs a cell that starts with one of these as a formula; agents choose tool names and
// arguments, so an exported value must never become one.
const FORMULA_START = /^[=+\-@\t\r]/;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return FORMULA_START.test(value) ? `'${value}` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; arrays and objects as JSON. */
export function csvField(value: unknown): string {
  const field = text(value);
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

export function csvLine<Row>(columns: readonly Column<Row>[], row: Row): string {
  return `${columns.map((column) => csvField(column.value(row))).join(',')}\r\n`;
}

export function csvHeader<Row>(columns: readonly Column<Row>[]): string {
  return `${columns.map((column) => csvField(column.header)).join(',')}\r\n`;
}

export function ndjsonLine(row: unknown): string {
  return `${JSON.stringify(row)}\n`;
}

export type ExportFormat = 'csv' | 'ndjson';

/** `events-2024-05-01T10-00-00.000Z.csv`: the ISO time with its colons made safe for every file system. */
export function exportFileName(kind: string, format: ExportFormat, now: Date): string {
  return `${kind}-${now.toISOString().replaceAll(':', '-')}.${format}`;
}
