import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { v7 as uuidv7 } from 'uuid';
import { eventually } from './eventually';

export interface TopicRecord {
  key: string | null;
  value: string;
}

/** Every record of one of the suite's topics (its prefix from `env`), read from the beginning until `enough` holds. */
export async function readTopicRecords(
  env: NodeJS.ProcessEnv,
  topic: string,
  enough: (records: TopicRecord[]) => boolean,
): Promise<TopicRecord[]> {
  const settings = kafkaSettingsFromEnv('test-topic-reader', env);
  const consumer = createKafka(settings).consumer({ groupId: `${settings.prefix}reader-${uuidv7()}` });
  await consumer.connect();
  await consumer.subscribe({ topic: settings.prefix + topic, fromBeginning: true });
  const records: TopicRecord[] = [];
  await consumer.run({
    eachMessage: async ({ message }) => {
      records.push({ key: message.key?.toString() ?? null, value: message.value?.toString() ?? '' });
    },
  });
  try {
    await eventually(async () => [...records], enough, { what: `records on ${topic}` });
  } finally {
    await consumer.disconnect();
  }
  return records;
}
