import { deadLetterTopic, TopicSpec } from '@agentwatch/contracts';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { Admin, ConfigResourceTypes, Kafka } from 'kafkajs';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { createTopic, ensureTopics, MAX_MESSAGE_BYTES } from './topic-admin';

describe('ensureTopics', () => {
  const settings = kafkaSettingsFromEnv('topic-admin', suiteEnv('topic-admin'));
  const spec: TopicSpec = { name: 'admin-check.v1', retentionMs: 86_400_000, cleanupPolicy: 'delete' };
  const topic = settings.prefix + spec.name;
  let kafka: Kafka;
  let admin: Admin;

  const configOf = async (name: string) => {
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name }],
    });
    return Object.fromEntries(resources[0].configEntries.map((e) => [e.configName, e.configValue]));
  };

  beforeAll(async () => {
    kafka = createKafka(settings);
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin.deleteTopics({ topics: [topic, settings.prefix + deadLetterTopic(spec.name)] }).catch(() => {});
    await admin.disconnect();
  });

  it('brings a topic created with broker defaults up to the contract, dead-letter topic included, and leaves it so', async () => {
    await createTopic(admin, topic, 2);
    expect(await configOf(topic)).toMatchObject({ 'max.message.bytes': '1048588' });

    const created = await ensureTopics(kafka, settings, [spec]);
    expect(created).toEqual([settings.prefix + deadLetterTopic(spec.name)]);
    const contract = {
      'max.message.bytes': String(MAX_MESSAGE_BYTES),
      'retention.ms': '86400000',
      'cleanup.policy': 'delete',
    };
    for (const name of [topic, settings.prefix + deadLetterTopic(spec.name)]) {
      // The controller applies a config change a moment after acknowledging it.
      const config = await eventually(
        () => configOf(name),
        (c) => Object.entries(contract).every(([key, value]) => c[key] === value),
        { timeoutMs: 10_000, what: `the contract's configuration on ${name}` },
      );
      expect(config).toMatchObject(contract);
    }
    expect(await ensureTopics(kafka, settings, [spec])).toEqual([]);
  });
});
