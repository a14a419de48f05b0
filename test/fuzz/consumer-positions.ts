import { Admin } from 'kafkajs';
import { DataSource } from 'typeorm';

export interface PartitionEnd {
  topic: string;
  partition: number;
  high: string;
}

export async function partitionEnds(admin: Admin, topics: string[]): Promise<PartitionEnd[]> {
  const ends: PartitionEnd[] = [];
  for (const topic of topics) {
    for (const { partition, high } of await admin.fetchTopicOffsets(topic)) ends.push({ topic, partition, high });
  }
  return ends;
}

/**
 * Every consumer group with a checkpoint on a topic (a reader of it) must have read each of its
 * partitions that holds records to the end; a partition it has no checkpoint for counts as unread.
 */
export async function laggingReaders(
  database: DataSource,
  ends: PartitionEnd[],
): Promise<{ groups: number; lagging: string[] }> {
  const rows: { consumer_group: string; topic: string; partition: number; next: string }[] = await database.query(
    `SELECT consumer_group, topic, partition, next_offset::text AS next FROM projection_checkpoints WHERE topic = ANY($1)`,
    [[...new Set(ends.map((e) => e.topic))]],
  );
  const readers = new Map(
    rows.map((r) => [`${r.consumer_group} ${r.topic}`, { group: r.consumer_group, topic: r.topic }]),
  );
  const lagging: string[] = [];
  for (const { group, topic } of readers.values()) {
    for (const end of ends.filter((e) => e.topic === topic && e.high !== '0')) {
      const next = rows.find(
        (r) => r.consumer_group === group && r.topic === topic && r.partition === end.partition,
      )?.next;
      if (next !== end.high)
        lagging.push(`${group} ${topic}:${end.partition} at ${next ?? 'no checkpoint'} of ${end.high}`);
    }
  }
  return { groups: new Set(rows.map((r) => r.consumer_group)).size, lagging };
}

/** The dead-letter topics of a deployment prefix that hold any record. */
export async function deadLettersUnder(admin: Admin, prefix: string): Promise<string[]> {
  const held: string[] = [];
  for (const topic of (await admin.listTopics()).filter((t) => t.startsWith(prefix) && t.endsWith('.dlq'))) {
    for (const { partition, high, low } of await admin.fetchTopicOffsets(topic)) {
      if (high !== low) held.push(`${topic}:${partition} holds ${BigInt(high) - BigInt(low)}`);
    }
  }
  return held;
}
