import { DLQ_HEADER_PREFIX, DLQ_HEADERS, REDRIVE_PROJECTION_HEADER } from './dead-letters';
import { ExportRecord } from './topic-export-format';

// The pure half of `agentwatch dlq`: what a dead letter says about itself, the line `list` prints
// for it, and the record a redrive sends back to its source topic.

export interface DeadLetterRecord {
  /** The dead-letter topic, deployment prefix included. */
  dlqTopic: string;
  partition: number;
  offset: string;
  timestamp: number;
  key: string | null;
  value: string | null;
  headers: Record<string, string | string[]>;
  source: { topic: string; partition: number; offset: string };
  org: string | null;
  projection: string | null;
  reason: string | null;
  sqlstate: string | null;
  error: string;
}

/** Headers Kafka repeats are arrays; every dead-letter header is written once. */
const one = (value: string | string[] | undefined): string | null =>
  value === undefined ? null : Array.isArray(value) ? (value[0] ?? null) : value;

export function toDeadLetter(dlqTopic: string, record: ExportRecord): DeadLetterRecord {
  const h = record.headers;
  const source = one(h[DLQ_HEADERS.sourceTopic]);
  const partition = one(h[DLQ_HEADERS.sourcePartition]);
  const offset = one(h[DLQ_HEADERS.sourceOffset]);
  return {
    dlqTopic,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: record.key,
    value: record.value,
    headers: h,
    // A record someone produced to a dead-letter topic by hand has no source headers: it is listed,
    // and a redrive refuses it (sourceOf) rather than guessing where it belongs.
    source: {
      topic: source ?? '',
      partition: partition === null ? -1 : Number(partition),
      offset: offset ?? '',
    },
    org: one(h[DLQ_HEADERS.orgId]) || one(h.org_id),
    projection: one(h[DLQ_HEADERS.projection]),
    reason: one(h[DLQ_HEADERS.reason]),
    sqlstate: one(h[DLQ_HEADERS.sqlstate]),
    error: one(h[DLQ_HEADERS.error]) ?? '',
  };
}

const withoutPrefix = (topic: string, prefix: string) =>
  prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;

/** One line of `dlq list`: where the dead letter is, where it came from, whose it is and why. */
export function listLine(letter: DeadLetterRecord, prefix: string, redriven: boolean): string {
  const { source } = letter;
  const error = letter.error.replace(/\s+/g, ' ').slice(0, 200);
  return [
    `${withoutPrefix(letter.dlqTopic, prefix)} ${letter.partition} ${letter.offset}`,
    `source=${withoutPrefix(source.topic, prefix)}/${source.partition}@${source.offset}`,
    `org=${letter.org ?? '-'}`,
    `projection=${letter.projection ?? '-'}`,
    `reason=${letter.reason ?? '-'}`,
    `sqlstate=${letter.sqlstate ?? '-'}`,
    ...(redriven ? ['redriven'] : []),
    `error=${JSON.stringify(error)}`,
  ].join('  ');
}

/** `dlq show`: the whole record, its value as pretty-printed JSON when it is JSON. */
export function showRecord(letter: DeadLetterRecord): string {
  let value: unknown = letter.value;
  if (letter.value !== null) {
    try {
      value = JSON.parse(letter.value);
    } catch {
      // Not JSON (the reason it was dead-lettered, maybe): shown as the text it is.
    }
  }
  return JSON.stringify(
    {
      topic: letter.dlqTopic,
      partition: letter.partition,
      offset: letter.offset,
      timestamp: new Date(letter.timestamp).toISOString(),
      headers: letter.headers,
      key: letter.key,
      value,
    },
    null,
    2,
  );
}

export interface RedriveMessage {
  topic: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string | string[]>;
}

/**
 * The original record, to produce to its source topic again: its own headers without the
 * dead-letter ones, plus `redriven_from` (its coordinates in the dead-letter topic, to trace it) and,
 * for a record a projection refused, the projection that is to apply it (see REDRIVE_PROJECTION_HEADER).
 */
export function redriveMessage(letter: DeadLetterRecord): RedriveMessage {
  if (!letter.source.topic) {
    throw new Error(`${letter.dlqTopic}/${letter.partition}@${letter.offset} names no source topic`);
  }
  const original = Object.fromEntries(
    Object.entries(letter.headers).filter(
      ([name]) => !name.startsWith(DLQ_HEADER_PREFIX) && name !== REDRIVE_PROJECTION_HEADER && name !== 'redriven_from',
    ),
  );
  const onlyFor: Record<string, string> =
    letter.reason === 'refused' && letter.projection ? { [REDRIVE_PROJECTION_HEADER]: letter.projection } : {};
  return {
    topic: letter.source.topic,
    key: letter.key,
    value: letter.value,
    headers: { ...original, redriven_from: `${letter.dlqTopic}/${letter.partition}@${letter.offset}`, ...onlyFor },
  };
}
