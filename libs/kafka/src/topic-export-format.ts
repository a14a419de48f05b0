import { PAYLOADS } from '@agentwatch/contracts';
import type { z } from 'zod';

// The pure half of `agentwatch export`: which records are selected, how one becomes an NDJSON
// line, and which offset range of each partition holds the requested time window.

/** One record as read from the broker, with key, value and headers already decoded as UTF-8. */
export interface ExportRecord {
  partition: number;
  offset: string;
  key: string | null;
  /** Kafka record timestamp, epoch milliseconds. */
  timestamp: number;
  headers: Record<string, string | string[]>;
  value: string | null;
}

/** Both bounds are inclusive, like the query API's `since` / `end_time`. */
export interface ExportSelection {
  orgId?: string;
  ceType?: string;
  sinceMs?: number;
  untilMs?: number;
}

export interface ExportLine {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  timestamp: string;
  headers: Record<string, string | string[]>;
  payload: unknown;
  /** Present when the value did not decode: the record is exported anyway, so nothing goes missing silently. */
  payload_error?: string;
  /** The raw value, only when it is not JSON and so cannot stand in `payload`. */
  value?: string;
}

export function selects(selection: ExportSelection, record: Pick<ExportRecord, 'timestamp' | 'headers'>): boolean {
  // Offsets found by timestamp bound the scan; a producer-set timestamp can still be out of order
  // inside that range, so the window is checked again per record.
  if (selection.sinceMs !== undefined && record.timestamp < selection.sinceMs) return false;
  if (selection.untilMs !== undefined && record.timestamp > selection.untilMs) return false;
  if (selection.orgId !== undefined && record.headers.org_id !== selection.orgId) return false;
  if (selection.ceType !== undefined && record.headers.ce_type !== selection.ceType) return false;
  return true;
}

type Contract = { ceType: string; schema: z.ZodType };
const CONTRACTS: Record<string, Contract | undefined> = PAYLOADS;

type Decoded = Pick<ExportLine, 'payload' | 'payload_error' | 'value'>;

/** Decodes a value through the topic's payload schema when the contracts define one. */
export function decodePayload(topic: string, ceType: string | string[] | undefined, value: string | null): Decoded {
  if (value === null) return { payload: null, payload_error: 'record has no value' };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (error) {
    return { payload: null, payload_error: `value is not JSON: ${(error as Error).message}`, value };
  }
  const contract = CONTRACTS[topic];
  if (!contract) return { payload: json };
  if (ceType !== contract.ceType) {
    return { payload: json, payload_error: `ce_type ${String(ceType ?? '(none)')} is not ${contract.ceType}` };
  }
  const parsed = contract.schema.safeParse(json);
  if (parsed.success) return { payload: parsed.data };
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`,
  );
  return { payload: json, payload_error: `does not match the ${topic} schema: ${issues.join('; ')}` };
}

export function toExportLine(topic: string, record: ExportRecord): ExportLine {
  return {
    topic,
    partition: record.partition,
    offset: record.offset,
    key: record.key,
    timestamp: new Date(record.timestamp).toISOString(),
    headers: record.headers,
    ...decodePayload(topic, record.headers.ce_type, record.value),
  };
}

export const formatLine = (line: ExportLine): string => `${JSON.stringify(line)}\n`;

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since` / `--until`: ISO 8601, epoch milliseconds, or a duration before `now` (`90m`, `2h`, `7d`). */
export function parseTimeArg(text: string, now: number): number {
  const trimmed = text.trim();
  const relative = /^(\d+)([smhd])$/.exec(trimmed);
  if (relative) return now - Number(relative[1]) * UNITS[relative[2]];
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // A bare date-time without an offset would be read in the machine's zone: refuse the ambiguity.
  if (/T\d{2}:\d{2}/.test(trimmed) && !/(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)) {
    throw new Error(`time "${text}" has no UTC offset: add Z or +hh:mm`);
  }
  const ms = Date.parse(trimmed);
  if (Number.isNaN(ms)) {
    throw new Error(`cannot read time "${text}": use ISO 8601, epoch milliseconds, or a duration ago like 2h`);
  }
  return ms;
}

export interface PartitionRange {
  partition: number;
  /** First offset to read. */
  start: bigint;
  /** First offset NOT to read. */
  end: bigint;
}

type OffsetOf = ReadonlyArray<{ partition: number; offset: string }>;

/**
 * Per partition, [first offset at or after `since`, min(high watermark at start, first offset
 * after `until`)). The high watermarks are captured once, so records appended while the export
 * runs are not part of it and the export ends.
 */
export function planRanges(highs: OffsetOf, starts: OffsetOf, untilEnds?: OffsetOf): PartitionRange[] {
  const startOf = new Map(starts.map((s) => [s.partition, BigInt(s.offset)]));
  const untilOf = new Map((untilEnds ?? []).map((u) => [u.partition, BigInt(u.offset)]));
  return highs
    .map(({ partition, offset }) => {
      const high = BigInt(offset);
      const until = untilOf.get(partition);
      const end = until !== undefined && until < high ? until : high;
      const start = startOf.get(partition) ?? 0n;
      return { partition, start: start < end ? start : end, end };
    })
    .sort((a, b) => a.partition - b.partition);
}

export const recordsInRange = (ranges: readonly PartitionRange[]): number =>
  ranges.reduce((total, r) => total + Number(r.end - r.start), 0);
