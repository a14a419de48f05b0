import { deadLetterTopic, TopicSpec } from '@agentwatch/contracts';
import { Admin, ConfigResourceTypes, Kafka } from 'kafkajs';
import { KafkaSettings } from './kafka.settings';

/**
 * Record batches up to this size are accepted. Kafka's 1 MB default is smaller than one ingest
 * request (5 MB of events that may all share a session, so one partition).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const topicConfig = (spec: TopicSpec): Record<string, string> => ({
  'retention.ms': String(spec.retentionMs),
  'cleanup.policy': spec.cleanupPolicy,
  'max.message.bytes': String(MAX_MESSAGE_BYTES),
});

/**
 * Creates missing topics (and their dead-letter topics) with the contract settings, and brings the
 * contract's settings of existing topics up to date (the contract owns them).
 */
export async function ensureTopics(
  kafka: Kafka,
  settings: KafkaSettings,
  specs: readonly TopicSpec[],
): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = specs.flatMap((spec) => [
      { name: settings.prefix + spec.name, spec },
      { name: settings.prefix + deadLetterTopic(spec.name), spec },
    ]);
    const missing = wanted.filter((t) => !existing.has(t.name));
    if (missing.length > 0) {
      // Leaders are awaited below: kafkajs's own wait gives up on a transient "unknown partition".
      await admin.createTopics({
        waitForLeaders: false,
        topics: missing.map(({ name, spec }) => ({
          topic: name,
          numPartitions: settings.partitions,
          replicationFactor: -1,
          configEntries: Object.entries(topicConfig(spec)).map(([name, value]) => ({ name, value })),
        })),
      });
    }
    await waitForMetadata(
      admin,
      wanted.map((t) => t.name),
    );
    await reconcileConfigs(
      admin,
      wanted.filter((t) => existing.has(t.name)),
    );
    return missing.map((t) => t.name);
  } finally {
    await admin.disconnect();
  }
}

async function reconcileConfigs(admin: Admin, topics: { name: string; spec: TopicSpec }[]): Promise<void> {
  if (topics.length === 0) return;
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: topics.map((t) => ({ type: ConfigResourceTypes.TOPIC, name: t.name })),
  });
  const stale = topics.filter(({ name, spec }) => {
    const current = resources.find((r) => r.resourceName === name)?.configEntries ?? [];
    return Object.entries(topicConfig(spec)).some(
      ([key, value]) => current.find((entry) => entry.configName === key)?.configValue !== value,
    );
  });
  if (stale.length === 0) return;
  // alterConfigs replaces a topic's whole set of overrides: it is given the contract's full set.
  await admin.alterConfigs({
    validateOnly: false,
    resources: stale.map(({ name, spec }) => ({
      type: ConfigResourceTypes.TOPIC,
      name,
      configEntries: Object.entries(topicConfig(spec)).map(([key, value]) => ({ name: key, value })),
    })),
  });
}

/**
 * Creates one topic with broker defaults and returns once clients can use it. kafkajs's own
 * `waitForLeaders` gives up when the metadata still answers "unknown topic or partition".
 */
export async function createTopic(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: false });
  await waitForMetadata(admin, [topic]);
}

/** A created topic is usable only once every partition has a leader in the metadata the clients read. */
async function waitForMetadata(admin: Admin, topics: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics });
      if (described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`topics have no partition leaders after ${timeoutMs} ms: ${topics.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function deleteTopicsWithPrefix(kafka: Kafka, prefix: string): Promise<void> {
  if (!prefix) throw new Error('refusing to delete every topic: no prefix given');
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}
