import { randomUUID } from 'node:crypto';
import { deadLetterTopic, TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { createOrganization, eventCounts, eventStream, eventually, spawnApp, suiteEnv } from '@agentwatch/testing';
import { Client } from 'pg';

// Several batches commit in the moment the failpoint's SIGKILL takes (900–1,900 events in local runs,
// once all of 4,000 in CI): the stream is large enough that the restart always has work left.
const EVENTS = 20_000;

describe('projector: exactly once across a crash between the database commit and the Kafka commit', () => {
  // A short session timeout: the killed member must leave the group quickly for the restart to take over.
  const env = suiteEnv('crash', { PROJECTOR_PORT: '0', LOG_LEVEL: 'warn', KAFKA_SESSION_TIMEOUT_MS: '6000' });
  const settings = kafkaSettingsFromEnv('crash-test', env);
  const kafka = createKafka(settings);
  // The events projection's checkpoints, and the Kafka group of the consumer it shares with sessions and agents.
  const group = `${settings.prefix}projector.events`;
  const consumerGroup = `${settings.prefix}projector.ingest`;
  const topic = settings.prefix + TOPICS.ingestEvents.name;
  let db: Client;
  let orgId: string;

  const countEvents = () => eventCounts(db, orgId);

  beforeAll(async () => {
    db = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    await db.connect();
    orgId = (await createOrganization('crash org', env)).orgId;
    const stream = await eventStream(env);
    await stream.produce(orgId, EVENTS);
    await stream.close();
    // A poison record in the middle of the stream: it must go to the dead-letter topic, not stop the projector.
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: [{ key: 'poison', value: '{"not":"an event"}', headers: { ce_specversion: '1.0' } }],
    });
    await producer.disconnect();
  });

  async function readAll(name: string): Promise<Record<string, string>[]> {
    const consumer = kafka.consumer({ groupId: `${settings.prefix}dlq-reader-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: name, fromBeginning: true });
    const headers: Record<string, string>[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        headers.push(Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])));
      },
    });
    await eventually(
      async () => headers.length,
      (n) => n > 0,
      { what: 'dead letters' },
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await consumer.disconnect();
    return headers;
  }

  afterAll(async () => {
    await db?.end();
  });

  it('dies after writing rows, before committing to Kafka; the restart projects every event exactly once', async () => {
    const crashing = spawnApp('projector', { ...env, AGENTWATCH_FAILPOINT: 'projector.after-db-commit' });
    expect(await crashing.exited).toBe('SIGKILL');

    const afterCrash = await countEvents();
    expect(afterCrash.total).toBeGreaterThan(0);
    expect(afterCrash.total).toBeLessThan(EVENTS);
    const admin = kafka.admin();
    await admin.connect();
    const [committed] = await admin.fetchOffsets({ groupId: consumerGroup, topics: [topic] });
    expect(committed.partitions.every((p) => p.offset === '-1')).toBe(true);

    const restarted = spawnApp('projector', env);
    try {
      const final = await eventually(countEvents, (c) => c.total >= EVENTS, {
        timeoutMs: 60_000,
        what: 'all events projected',
      });
      // Give a wrongly re-applied batch the chance to show up before judging.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await countEvents()).toEqual({ total: EVENTS, distinct: EVENTS });
      expect(final.total).toBe(EVENTS);

      const highWatermarks = await admin.fetchTopicOffsets(topic);
      const { rows: checkpoints } = await db.query(
        'SELECT partition, next_offset FROM projection_checkpoints WHERE consumer_group = $1 AND topic = $2',
        [group, topic],
      );
      const checkpointOf = new Map(checkpoints.map((c) => [c.partition, c.next_offset]));
      for (const { partition, high } of highWatermarks) {
        if (high !== '0') expect(checkpointOf.get(partition)).toBe(high);
      }

      // The dead-letter topic is at-least-once (a crash may repeat a send); its records name their source.
      const dead = await readAll(deadLetterTopic(topic));
      expect(new Set(dead.map((h) => `${h.dlq_source_partition}/${h.dlq_source_offset}`)).size).toBe(1);
      expect(dead[0]).toMatchObject({ dlq_source_topic: topic, dlq_consumer_group: consumerGroup });
      expect(dead[0].dlq_error).toMatch(/payload|header/);
    } finally {
      await restarted.kill('SIGTERM');
      await admin.disconnect();
    }
  });
});
