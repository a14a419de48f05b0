import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EVENT_RECORDED_TYPE, EventRecordedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { suiteEnv } from '@agentwatch/testing';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { EventPublisher } from './event-publisher';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { deleteTopicsWithPrefix, ensureTopics } from './topic-admin';

const run = promisify(execFile);

// The command of docs/operations.md, as typed in a shell between single quotes: kcat itself reads the \n escapes.
const FORMAT = '%T %p:%o key=%k %h\\n%s\\n';

describe('plain kcat (the Debian package) reads our topics in a form a person can follow', () => {
  // Topics of its own on every run: the checks count records, so a rerun must not see an earlier run's.
  const env = suiteEnv(`kcat-${Date.now().toString(36)}`);
  const settings = kafkaSettingsFromEnv('kcat-test', env);
  const kafka = createKafka(settings);
  const orgs = [uuidv7(), uuidv7()];
  const events: EventRecordedV1[] = Array.from({ length: 6 }, (_, i) => ({
    id: uuidv7(),
    org_id: orgs[i % 2],
    client_event_id: `daemon-${i}`,
    session_id: uuidv4(),
    agent_id: 'claude-code',
    machine_id: 'laptop-1',
    action_type: i % 3 === 0 ? 'FILE_READ' : 'PROCESS_EXEC',
    tool_name: i % 3 === 0 ? 'cat' : 'git',
    arguments: i % 3 === 0 ? ['/home/dev/.aws/credentials'] : ['push', 'origin', 'main'],
    decision: 'allow',
    timestamp: new Date(Date.UTC(2026, 0, 1, 9, 0, i)).toISOString(),
    received_at: new Date(Date.UTC(2026, 0, 1, 9, 0, i, 500)).toISOString(),
  }));

  beforeAll(async () => {
    await ensureTopics(kafka, settings, [TOPICS.ingestEvents]);
    const publisher = new EventPublisher(kafka, settings);
    await publisher.onModuleInit();
    try {
      await publisher.publish(
        TOPICS.ingestEvents.name,
        events.map((e) =>
          toWire({
            id: e.id,
            type: EVENT_RECORDED_TYPE,
            orgId: e.org_id,
            time: e.received_at,
            key: e.session_id!,
            payload: e,
          }),
        ),
      );
    } finally {
      await publisher.onApplicationShutdown();
    }
  });

  afterAll(() => deleteTopicsWithPrefix(kafka, settings.prefix));

  it('shows per record its time, position, key, the CloudEvents headers and the JSON event', async () => {
    const topic = settings.prefix + TOPICS.ingestEvents.name;
    const { stdout } = await run(
      'kcat',
      ['-b', settings.brokers.join(','), '-C', '-t', topic, '-f', FORMAT, '-e', '-q'],
      { timeout: 60_000 },
    );
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(events.length * 2);

    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i += 2) {
      const head = /^(\d{13}) (\d+):(\d+) key=(\S+) (.+)$/.exec(lines[i]);
      expect(head).not.toBeNull();
      const [, timestamp, , , key, headerText] = head!;
      const headers = Object.fromEntries(headerText.split(',').map((h) => h.split(/=(.*)/s).slice(0, 2)));
      // The value is plain JSON: a person reads it as is, and `jq` parses it.
      const value = JSON.parse(lines[i + 1]) as EventRecordedV1;
      const sent = events.find((e) => e.id === value.id)!;
      expect(value).toEqual(sent);
      expect(key).toBe(sent.session_id);
      expect(headers).toEqual({
        ce_specversion: '1.0',
        ce_id: sent.id,
        ce_type: 'agentwatch.ingest.event.v1',
        ce_source: `/orgs/${sent.org_id}`,
        ce_time: sent.received_at,
        'content-type': 'application/json',
        org_id: sent.org_id,
      });
      expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(10 * 60_000);
      expect(lines[i + 1]).toContain(`"tool_name":"${sent.tool_name}"`);
      seen.add(value.id);
    }
    expect(seen.size).toBe(events.length);
  });
});
