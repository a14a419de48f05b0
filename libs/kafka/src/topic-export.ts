import { randomUUID } from 'node:crypto';
import { Admin, Batch, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import {
  ExportRecord,
  ExportSelection,
  formatLine,
  PartitionRange,
  planRanges,
  recordsInRange,
  selects,
  toExportLine,
} from './topic-export-format';

export interface TopicExportOptions {
  /** The contract name (`ingest.events.v1`): payloads are decoded by it and lines carry it. */
  topic: string;
  /** Deployment prefix (`KAFKA_TOPIC_PREFIX`) of the topic and of the export's throw-away group. */
  prefix: string;
  selection: ExportSelection;
}

export interface ExportObserver {
  start(topic: string, partitions: number, total: number): void;
  update(read: number, exported: number): void;
  finish(read: number, exported: number): void;
}

/** Receives NDJSON lines; the returned promise applies back-pressure (a slow pipe slows the read). */
export type LineSink = (line: string) => Promise<void>;

export interface TopicExportResult {
  read: number;
  exported: number;
  ranges: PartitionRange[];
}

/** The offset range of each partition that holds [since, until], found by timestamp (ListOffsets), not by scanning. */
export async function planExport(admin: Admin, topic: string, selection: ExportSelection): Promise<PartitionRange[]> {
  if (!(await admin.listTopics()).includes(topic)) throw new Error(`topic ${topic} does not exist`);
  const offsets = await admin.fetchTopicOffsets(topic);
  const highs = offsets.map((o) => ({ partition: o.partition, offset: o.high }));
  const starts =
    selection.sinceMs === undefined
      ? offsets.map((o) => ({ partition: o.partition, offset: o.low }))
      : await admin.fetchTopicOffsetsByTimestamp(topic, selection.sinceMs);
  // The first offset whose timestamp is past `until` is where the window ends.
  const untilEnds =
    selection.untilMs === undefined
      ? undefined
      : await admin.fetchTopicOffsetsByTimestamp(topic, selection.untilMs + 1);
  return planRanges(highs, starts, untilEnds);
}

const text = (value: Buffer | string | null | undefined): string | null =>
  value === null || value === undefined ? null : value.toString('utf8');

function decodeHeaders(headers: IHeaders | undefined): Record<string, string | string[]> {
  const decoded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    decoded[name] = Array.isArray(value) ? value.map((v) => v.toString('utf8')) : value.toString('utf8');
  }
  return decoded;
}

const toRecord = (partition: number, message: KafkaMessage): ExportRecord => ({
  partition,
  offset: message.offset,
  key: text(message.key),
  timestamp: Number(message.timestamp),
  headers: decodeHeaders(message.headers),
  value: text(message.value),
});

/**
 * Streams the selected records of one topic as NDJSON lines. Reads with a throw-away consumer
 * group that commits nothing; every (re)assignment seeks to where this export has got to, so a
 * rebalance neither repeats nor skips a record.
 */
export async function exportTopic(
  kafka: Kafka,
  options: TopicExportOptions,
  sink: LineSink,
  observer: ExportObserver,
): Promise<TopicExportResult> {
  const topic = options.prefix + options.topic;
  const admin = kafka.admin();
  await admin.connect();
  let ranges: PartitionRange[];
  try {
    ranges = await planExport(admin, topic, options.selection);
  } finally {
    await admin.disconnect();
  }
  observer.start(options.topic, ranges.length, recordsInRange(ranges));
  const counts = await readRanges(kafka, { topic, prefix: options.prefix, ranges }, observer, async (record) => {
    if (!selects(options.selection, record)) return false;
    await sink(formatLine(toExportLine(options.topic, record)));
    return true;
  });
  observer.finish(counts.read, counts.exported);
  return { ...counts, ranges };
}

/** Takes one record; true when it was kept (exported, say), which the counts report. */
export type RecordTaker = (record: ExportRecord) => Promise<boolean>;

/**
 * Reads the given offset ranges of one topic (deployment prefix included), once each, in offset order
 * per partition; every range must end at or below its partition's high watermark.
 */
export async function readRanges(
  kafka: Kafka,
  options: { topic: string; prefix: string; ranges: PartitionRange[] },
  observer: Pick<ExportObserver, 'update'>,
  take: RecordTaker,
): Promise<{ read: number; exported: number }> {
  const { topic, ranges } = options;
  const next = new Map(ranges.filter((r) => r.start < r.end).map((r) => [r.partition, r.start]));
  const end = new Map(ranges.map((r) => [r.partition, r.end]));
  const counts = { read: 0, exported: 0 };
  if (next.size > 0) await consume(kafka, options.prefix, topic, { next, end, counts, take, observer });
  return counts;
}

interface ReadState {
  next: Map<number, bigint>;
  end: Map<number, bigint>;
  counts: { read: number; exported: number };
  take: RecordTaker;
  observer: Pick<ExportObserver, 'update'>;
}

async function consume(kafka: Kafka, prefix: string, topic: string, state: ReadState): Promise<void> {
  const { next, end, counts } = state;
  const consumer = kafka.consumer({
    groupId: `${prefix}agentwatch-export-${randomUUID()}`,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 500,
  });
  let finished: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const pauseDone = () => {
    const partitions = [...end.keys()].filter((p) => !next.has(p));
    if (partitions.length > 0) consumer.pause([{ topic, partitions }]);
  };
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    for (const partition of payload.memberAssignment[topic] ?? []) {
      const offset = next.get(partition);
      if (offset !== undefined) consumer.seek({ topic, partition, offset: offset.toString() });
    }
    pauseDone();
  });
  // Transaction markers and aborted records take offsets that no message shows; the batch's last
  // offset carries the position past them, or a range ending in a marker would never finish.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic === topic) advance(payload.partition, BigInt(payload.lastOffset) + 1n);
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) failed(payload.error);
  });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      // A failing sink (a closed pipe, a full disk) ends the export; kafkajs would retry the batch forever.
      eachBatch: ({ batch, heartbeat }) =>
        readBatch(batch, heartbeat).catch((error: Error) => {
          next.clear();
          failed(error);
        }),
    });
    await done;
  } finally {
    await consumer.disconnect();
  }

  async function readBatch(batch: Batch, heartbeat: () => Promise<void>): Promise<void> {
    const partition = batch.partition;
    for (const message of batch.messages) {
      const position = next.get(partition);
      if (position === undefined) return;
      const offset = BigInt(message.offset);
      // Records before the position come from a fetch issued before the seek took effect.
      if (offset < position) continue;
      if (offset >= end.get(partition)!) break;
      next.set(partition, offset + 1n);
      counts.read++;
      if (await state.take(toRecord(partition, message))) counts.exported++;
      if (counts.read % 500 === 0) await heartbeat();
    }
    state.observer.update(counts.read, counts.exported);
    advance(partition, next.get(partition) ?? 0n);
  }

  /** Moves a partition's position forward (never back) and retires the partition at its end. */
  function advance(partition: number, to: bigint): void {
    const position = next.get(partition);
    if (position === undefined) return;
    if (to > position) next.set(partition, to);
    if ((to > position ? to : position) < end.get(partition)!) return;
    next.delete(partition);
    pauseDone();
    if (next.size === 0) finished();
  }
}
