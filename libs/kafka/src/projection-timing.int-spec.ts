import { databaseConfigFromEnv } from '@agentwatch/db';
import { eventually, suiteEnv } from '@agentwatch/testing';
import { Admin, Kafka } from 'kafkajs';
import { Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { EventPublisher } from './event-publisher';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { metrics } from './metrics';
import { ProjectionRunner } from './projection-runner';
import { createTopic } from './topic-admin';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('projection stage waits', () => {
  const env = suiteEnv('projection-timing');
  const settings = kafkaSettingsFromEnv('projection-timing', env);
  const topic = 'timing-check.v1';
  const group = `${settings.prefix}timing-check`;
  let kafka: Kafka;
  let admin: Admin;
  let dataSource: DataSource;
  let publisher: EventPublisher;

  beforeAll(async () => {
    kafka = createKafka(settings);
    admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, settings.prefix + topic, 1);
    dataSource = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv(env).projectorUrl }).initialize();
    publisher = new EventPublisher(kafka, settings);
    await publisher.onModuleInit();
  });

  afterAll(async () => {
    await publisher.onApplicationShutdown();
    await dataSource.query('DELETE FROM projection_checkpoints WHERE consumer_group = $1', [group]);
    await dataSource.destroy();
    await admin.deleteTopics({ topics: [settings.prefix + topic] }).catch(() => {});
    await admin.disconnect();
  });

  const publish = (numbers: number[]) =>
    publisher.publish(
      topic,
      numbers.map((n) => ({
        key: 'same-partition',
        value: JSON.stringify({ n }),
        headers: { ce_specversion: '1.0', ce_id: `id-${n}`, ce_type: 'check', ce_time: '', org_id: 'o' },
      })),
    );

  const series = async (histogram: Histogram<'consumer' | 'topic'>) => {
    const { name, values } = await histogram.get();
    const of = (metricName: string) =>
      values.find(
        (v) =>
          v.metricName === metricName &&
          v.labels.consumer === 'timing-check' &&
          v.labels.topic === settings.prefix + topic,
      )?.value ?? 0;
    return { count: of(`${name}_count`), sum: of(`${name}_sum`) };
  };

  it('observe broker timestamp → taken up and taken up → committed, once per produce request', async () => {
    // Two produce requests of three and two records: two timestamps, so two observations each.
    await publish([1, 2, 3]);
    await sleep(20);
    await publish([4, 5]);
    // The records wait this long on the broker before any consumer exists.
    const appendedBeforeStart = 600;
    await sleep(appendedBeforeStart);
    const applied: number[] = [];
    const runner = new ProjectionRunner(kafka, dataSource, {
      name: 'timing-check',
      consumerGroup: group,
      topics: { [topic]: z.object({ n: z.number() }) },
      members: [
        {
          name: 'timing-check',
          group,
          topics: [topic],
          apply: async ({ records }) => {
            // A transaction that takes this long at least.
            await sleep(250);
            applied.push(...records.map((r) => r.payload.n));
          },
        },
      ],
      prefix: settings.prefix,
      sessionTimeoutMs: 10_000,
      asynchronousCommit: true,
    });
    await runner.start();
    try {
      const commit = await eventually(
        () => series(metrics.commitWaitSeconds),
        (s) => s.count >= 2,
        { timeoutMs: 30_000, what: 'two commit-wait observations' },
      );
      const fetch = await series(metrics.fetchWaitSeconds);
      expect(applied.sort()).toEqual([1, 2, 3, 4, 5]);
      expect(fetch.count).toBe(2);
      expect(commit.count).toBe(2);
      // Each wait at least what the test imposed, and not absurdly more (a group join takes seconds).
      expect(fetch.sum / fetch.count).toBeGreaterThanOrEqual(appendedBeforeStart / 1000);
      expect(fetch.sum / fetch.count).toBeLessThan(30);
      expect(commit.sum / commit.count).toBeGreaterThanOrEqual(0.25);
      expect(commit.sum / commit.count).toBeLessThan(5);
    } finally {
      await runner.stop();
    }
  });
});
