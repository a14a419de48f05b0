import { suiteEnv } from '@agentwatch/testing';
import { Kafka } from 'kafkajs';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { createTopic } from './topic-admin';

describe('kafkajs against the local broker', () => {
  const settings = kafkaSettingsFromEnv('smoke', suiteEnv('smoke'));
  const topic = `${settings.prefix}smoke.v1`;
  let kafka: Kafka;

  beforeAll(() => {
    kafka = createKafka(settings);
  });

  it('creates a topic, produces idempotently, consumes it from the beginning in a group and commits offsets', async () => {
    const admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, topic, 3);

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const sent = Array.from({ length: 300 }, (_, i) => ({
      key: `k${i % 11}`,
      value: `v${i}`,
      headers: { n: String(i) },
    }));
    const acks = await producer.send({ topic, acks: -1, messages: sent });
    expect(acks.every((ack) => ack.errorCode === 0)).toBe(true);
    await producer.disconnect();

    const groupId = `${settings.prefix}smoke-group`;
    const consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch, resolveOffset }) => {
            for (const message of batch.messages) {
              received.push(message.value!.toString());
              resolveOffset(message.offset);
            }
            await consumer.commitOffsets([
              { topic, partition: batch.partition, offset: (BigInt(batch.lastOffset()) + 1n).toString() },
            ]);
            if (received.length >= sent.length) resolve();
          },
        })
        .catch(reject);
    });
    await consumer.disconnect();

    expect(received.sort()).toEqual(sent.map((m) => m.value).sort());
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const highWatermarks = await admin.fetchTopicOffsets(topic);
    expect(committed.partitions.map((p) => [p.partition, p.offset]).sort()).toEqual(
      highWatermarks.map((p) => [p.partition, p.high]).sort(),
    );
    await admin.deleteTopics({ topics: [topic] });
    await admin.disconnect();
  });
});
