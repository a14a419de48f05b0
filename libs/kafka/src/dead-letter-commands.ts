import { deadLetterTopic } from '@agentwatch/contracts';
import { Admin, Kafka } from 'kafkajs';
import { DataSource } from 'typeorm';
import { DeadLetterRecord, listLine, redriveMessage, showRecord, toDeadLetter } from './dead-letter-records';
import { KafkaSettings } from './kafka.settings';
import { readRanges } from './topic-export';
import { PartitionRange } from './topic-export-format';

// `agentwatch dlq list|show|redrive`. Dead-letter topics are small (a record lands there only when
// a schema or the database refuses it), so each command reads the topics it names whole.

export interface DlqListArgs {
  topic?: string;
  limit?: string;
}

export interface DlqRedriveArgs {
  topic?: string;
  org?: string;
  dryRun?: boolean;
}

type Print = (line: string) => void;

const keyOf = (l: Pick<DeadLetterRecord, 'dlqTopic' | 'partition' | 'offset'>) =>
  `${l.dlqTopic}/${l.partition}/${l.offset}`;

/** `--topic` names a source topic or its dead-letter topic, with or without the deployment prefix. */
async function dlqTopics(admin: Admin, prefix: string, topic?: string): Promise<string[]> {
  const all = (await admin.listTopics()).filter((t) => t.startsWith(prefix) && t.endsWith(deadLetterTopic(''))).sort();
  if (topic === undefined) return all;
  const base = prefix && topic.startsWith(prefix) ? topic.slice(prefix.length) : topic;
  const name = prefix + (base.endsWith(deadLetterTopic('')) ? base : deadLetterTopic(base));
  if (!all.includes(name)) throw new Error(`topic ${name} does not exist`);
  return [name];
}

async function readDeadLetters(kafka: Kafka, prefix: string, topic?: string): Promise<DeadLetterRecord[]> {
  const admin = kafka.admin();
  await admin.connect();
  const letters: DeadLetterRecord[] = [];
  try {
    for (const dlq of await dlqTopics(admin, prefix, topic)) {
      const ranges: PartitionRange[] = (await admin.fetchTopicOffsets(dlq)).map((o) => ({
        partition: o.partition,
        start: BigInt(o.low),
        end: BigInt(o.high),
      }));
      const found: DeadLetterRecord[] = [];
      await readRanges(kafka, { topic: dlq, prefix, ranges }, { update: () => {} }, async (record) => {
        found.push(toDeadLetter(dlq, record));
        return true;
      });
      letters.push(...found.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset))));
    }
  } finally {
    await admin.disconnect();
  }
  return letters;
}

/**
 * The dead letters already re-driven (table dead_letter_redrives; see its migration for why Postgres).
 */
async function redrivenKeys(dataSource: DataSource, letters: DeadLetterRecord[]): Promise<Set<string>> {
  const topics = [...new Set(letters.map((l) => l.dlqTopic))];
  const rows: { dlq_topic: string; dlq_partition: number; dlq_offset: string }[] = await dataSource.query(
    'SELECT dlq_topic, dlq_partition, dlq_offset FROM dead_letter_redrives WHERE dlq_topic = ANY($1)',
    [topics],
  );
  return new Set(rows.map((r) => keyOf({ dlqTopic: r.dlq_topic, partition: r.dlq_partition, offset: r.dlq_offset })));
}

export async function dlqList(
  kafka: Kafka,
  dataSource: DataSource,
  settings: KafkaSettings,
  args: DlqListArgs,
  print: Print = console.log,
): Promise<DeadLetterRecord[]> {
  const limit = args.limit === undefined ? Number.POSITIVE_INFINITY : Number(args.limit);
  if (!(limit >= 0)) throw new Error(`--limit must be a number, got ${args.limit}`);
  const letters = await readDeadLetters(kafka, settings.prefix, args.topic);
  const redriven = await redrivenKeys(dataSource, letters);
  for (const letter of letters.slice(0, limit)) print(listLine(letter, settings.prefix, redriven.has(keyOf(letter))));
  const counts = new Map<string, number>();
  for (const l of letters) counts.set(l.dlqTopic, (counts.get(l.dlqTopic) ?? 0) + 1);
  for (const [topic, count] of counts) print(`${topic.slice(settings.prefix.length)}: ${count} dead letter(s)`);
  if (letters.length === 0) print('no dead letters');
  return letters;
}

export async function dlqShow(
  kafka: Kafka,
  settings: KafkaSettings,
  topic: string,
  partition: string,
  offset: string,
  print: Print = console.log,
): Promise<DeadLetterRecord> {
  if (!/^\d+$/.test(partition) || !/^\d+$/.test(offset)) throw new Error('partition and offset are whole numbers');
  const admin = kafka.admin();
  await admin.connect();
  let dlq: string;
  let ranges: PartitionRange[];
  try {
    [dlq] = await dlqTopics(admin, settings.prefix, topic);
    const at = (await admin.fetchTopicOffsets(dlq)).find((o) => o.partition === Number(partition));
    const wanted = BigInt(offset);
    if (!at || wanted < BigInt(at.low) || wanted >= BigInt(at.high)) {
      throw new Error(`${dlq} has no record at partition ${partition}, offset ${offset}`);
    }
    ranges = [{ partition: Number(partition), start: wanted, end: wanted + 1n }];
  } finally {
    await admin.disconnect();
  }
  let found: DeadLetterRecord | undefined;
  await readRanges(kafka, { topic: dlq, prefix: settings.prefix, ranges }, { update: () => {} }, async (record) => {
    found = toDeadLetter(dlq, record);
    return true;
  });
  // An offset inside the range can still hold no record (a transaction marker): say so, do not hang.
  if (!found) throw new Error(`${dlq} has no record at partition ${partition}, offset ${offset}`);
  print(showRecord(found));
  return found;
}

export interface RedriveResult {
  redriven: DeadLetterRecord[];
  skipped: DeadLetterRecord[];
}

/**
 * Re-produces the selected dead letters to the partition they came from. Each is claimed in
 * dead_letter_redrives and produced inside one transaction: the claim commits only once the broker
 * has acknowledged the record, so a failed produce leaves it to the next redrive, and a redrive run
 * twice (or by two operators at once) sends it once. A crash between the acknowledgment and the
 * commit sends it again on the next run; `redriven_from` names the dead letter it came from.
 */
export async function dlqRedrive(
  kafka: Kafka,
  dataSource: DataSource,
  settings: KafkaSettings,
  args: DlqRedriveArgs,
  print: Print = console.log,
): Promise<RedriveResult> {
  const selected = (await readDeadLetters(kafka, settings.prefix, args.topic)).filter(
    (l) => args.org === undefined || l.org === args.org,
  );
  const already = await redrivenKeys(dataSource, selected);
  const result: RedriveResult = { redriven: [], skipped: selected.filter((l) => already.has(keyOf(l))) };
  const pending = selected.filter((l) => !already.has(keyOf(l)));
  const shown = (l: DeadLetterRecord) => listLine(l, settings.prefix, false);
  if (args.dryRun) {
    for (const letter of pending) print(`would redrive ${shown(letter)}`);
    print(`dry run: ${pending.length} to redrive, ${result.skipped.length} redriven before`);
    return { redriven: [], skipped: result.skipped };
  }
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (const letter of pending) {
      const message = redriveMessage(letter);
      const sent = await dataSource.transaction(async (tx) => {
        const claimed: unknown[] = await tx.query(
          `INSERT INTO dead_letter_redrives
             (dlq_topic, dlq_partition, dlq_offset, source_topic, source_partition, source_offset, org_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT DO NOTHING RETURNING dlq_offset`,
          [
            letter.dlqTopic,
            letter.partition,
            letter.offset,
            message.topic,
            letter.source.partition,
            letter.source.offset,
            letter.org,
          ],
        );
        if (claimed.length === 0) return null; // another redrive took it since the read above
        const [meta] = await producer.send({
          topic: message.topic,
          acks: -1,
          messages: [
            { partition: letter.source.partition, key: message.key, value: message.value, headers: message.headers },
          ],
        });
        return meta;
      });
      if (sent === null) {
        result.skipped.push(letter);
        continue;
      }
      result.redriven.push(letter);
      print(
        `redriven ${shown(letter)}  to=${message.topic.slice(settings.prefix.length)}/${sent.partition}@${sent.baseOffset}`,
      );
    }
  } finally {
    await producer.disconnect();
  }
  print(`redriven ${result.redriven.length}, ${result.skipped.length} redriven before`);
  return result;
}
