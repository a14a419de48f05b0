import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EVENT_RECORDED_TYPE, EventRecordedV1, TOPICS, toWire } from '@agentwatch/contracts';
import { suiteEnv } from '@agentwatch/testing';
import { Kafka, logLevel } from 'kafkajs';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { createKafka } from './kafka.client';
import { kafkaSettingsFromEnv } from './kafka.settings';
import { createTopic, deleteTopicsWithPrefix, ensureTopics } from './topic-admin';
import { ExportLine } from './topic-export-format';

const run = promisify(execFile);
const cli = path.resolve(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const minute = (n: number) => new Date(T0 + n * 60_000).toISOString();
const OTHER_TYPE = 'agentwatch.test.other.v1';

describe('agentwatch export (the built CLI against the real broker)', () => {
  // Topics of its own on every run: the checks count records, so a rerun must not see an earlier run's.
  const env = suiteEnv(`export-${Date.now().toString(36)}`);
  const settings = kafkaSettingsFromEnv('export-test', env);
  const kafka = createKafka(settings);
  const orgA = uuidv7();
  const orgB = uuidv7();
  const sessions = [uuidv4(), uuidv4(), uuidv4()];
  // Event i happens at minute i, alternately in organization A and B.
  const events: EventRecordedV1[] = Array.from({ length: 24 }, (_, i) => ({
    id: uuidv7(),
    org_id: i % 2 === 0 ? orgA : orgB,
    client_event_id: null,
    session_id: sessions[i % sessions.length],
    agent_id: 'claude-code',
    machine_id: 'laptop-1',
    action_type: 'PROCESS_EXEC',
    tool_name: 'git',
    arguments: ['log', `-${i}`],
    decision: 'allow',
    timestamp: minute(i),
    received_at: minute(i),
  }));
  const wireOf = (payload: unknown, orgId: string, type = EVENT_RECORDED_TYPE) =>
    toWire({ id: uuidv7(), type, orgId, time: minute(0), key: sessions[0], payload });

  beforeAll(async () => {
    await ensureTopics(kafka, settings, [TOPICS.ingestEvents]);
    // Starting a transaction right after the previous one ended draws a retriable CONCURRENT_TRANSACTIONS
    // that kafkajs logs as an error before retrying; a real failure still rejects the awaited call.
    const quiet = new Kafka({ brokers: settings.brokers, logLevel: logLevel.NOTHING });
    const producer = quiet.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // Explicit record timestamps, in order, so the time window maps onto known offsets.
    await producer.send({
      topic: settings.prefix + TOPICS.ingestEvents.name,
      acks: -1,
      messages: [
        ...events.map((e) => ({
          ...wireOf(e, e.org_id),
          key: e.session_id!,
          timestamp: String(Date.parse(e.timestamp)),
        })),
        { ...wireOf({ not: 'an event' }, orgA), timestamp: String(T0 + 30 * 60_000) },
        { ...wireOf({ note: 'another type' }, orgA, OTHER_TYPE), timestamp: String(T0 + 31 * 60_000) },
      ],
    });
    await producer.disconnect();
  });

  afterAll(() => deleteTopicsWithPrefix(kafka, settings.prefix));

  async function exportLines(...args: string[]) {
    const withTopic = args.includes('--topic') ? args : ['--topic', 'ingest.events.v1', ...args];
    const { stdout, stderr } = await run('node', [cli, 'export', ...withTopic], {
      env,
      timeout: 60_000,
    });
    const lines = stdout.split('\n').filter(Boolean);
    return { lines: lines.map((line) => JSON.parse(line) as ExportLine), stdout, stderr };
  }
  const idsOf = (lines: ExportLine[]) => lines.map((l) => (l.payload as EventRecordedV1).id).sort();
  const idsWhere = (keep: (e: EventRecordedV1, i: number) => boolean) =>
    events
      .filter(keep)
      .map((e) => e.id)
      .sort();

  it('exports every record, decoded, with key, headers and position; a record that fails its schema still appears', async () => {
    const { lines, stderr } = await exportLines();
    expect(lines).toHaveLength(26);
    const first = lines.find((l) => (l.payload as EventRecordedV1 | null)?.id === events[3].id)!;
    expect(first).toEqual({
      topic: 'ingest.events.v1',
      partition: expect.any(Number),
      offset: expect.stringMatching(/^\d+$/),
      key: events[3].session_id,
      timestamp: minute(3),
      headers: {
        ce_specversion: '1.0',
        ce_id: expect.any(String),
        ce_type: EVENT_RECORDED_TYPE,
        ce_source: `/orgs/${orgB}`,
        ce_time: minute(0),
        'content-type': 'application/json',
        org_id: orgB,
      },
      payload: events[3],
    });
    const invalid = lines.filter((l) => l.payload_error);
    expect(invalid.map((l) => l.payload)).toEqual([{ not: 'an event' }, { note: 'another type' }]);
    expect(invalid[0].payload_error).toMatch(/does not match the ingest.events.v1 schema/);
    expect(invalid[1].payload_error).toBe(`ce_type ${OTHER_TYPE} is not ${EVENT_RECORDED_TYPE}`);
    expect(stderr).toMatch(/^export: ingest.events.v1, \d+ partitions, 26 records in range$/m);
    expect(stderr).toMatch(/^export: done, 26 records read, 26 exported in /m);
  });

  it('reads only the offsets of the time window (found by timestamp), bounds inclusive', async () => {
    const { lines, stderr } = await exportLines('--since', minute(5), '--until', minute(14));
    expect(idsOf(lines)).toEqual(idsWhere((_, i) => i >= 5 && i <= 14));
    expect(lines.map((l) => l.timestamp).sort()).toEqual(Array.from({ length: 10 }, (_, i) => minute(5 + i)));
    // Ten records read out of 26: the start offsets came from the broker's time index, not from a scan.
    expect(stderr).toMatch(/^export: ingest.events.v1, \d+ partitions, 10 records in range$/m);
    expect(stderr).toMatch(/^export: done, 10 records read, 10 exported in /m);
  });

  it('selects one organization, and one CloudEvents type', async () => {
    const { lines: ofB } = await exportLines('--org', orgB, '--since', minute(10));
    expect(idsOf(ofB)).toEqual(idsWhere((e, i) => e.org_id === orgB && i >= 10));
    expect(ofB.every((l) => l.headers.org_id === orgB)).toBe(true);

    const { lines: other } = await exportLines('--type', OTHER_TYPE);
    expect(other.map((l) => l.payload)).toEqual([{ note: 'another type' }]);
    const { lines: ofA } = await exportLines('--type', EVENT_RECORDED_TYPE, '--org', orgA);
    expect(ofA).toHaveLength(13);
    expect(ofA.every((l) => l.headers.ce_type === EVENT_RECORDED_TYPE && l.headers.org_id === orgA)).toBe(true);
  });

  it('keeps stdout for NDJSON and progress on stderr; --out writes the file and leaves stdout empty', async () => {
    const piped = await exportLines('--until', minute(3));
    expect(piped.stdout.split('\n').filter(Boolean)).toHaveLength(4);
    expect(piped.stdout).not.toContain('export:');
    const progress = piped.stderr.split('\n').filter(Boolean);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((line) => line.startsWith('export: '))).toBe(true);
    expect(piped.stderr).not.toContain('\r');

    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentwatch-export-')), 'events.ndjson');
    const toFile = await exportLines('--org', orgA, '--until', minute(3), '--out', out);
    expect(toFile.stdout).toBe('');
    expect(
      fs
        .readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).payload.id),
    ).toEqual(expect.arrayContaining([events[0].id, events[2].id]));
    expect(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(toFile.stderr).toMatch(/^export: done, 4 records read, 2 exported in /m);
  });

  it('finishes on a topic written in transactions, whose partitions end in commit markers, without aborted records', async () => {
    const topic = 'export-test.transactional.v1';
    const admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, settings.prefix + topic, 2);
    await admin.disconnect();
    // Starting a transaction right after the previous one ended draws a retriable CONCURRENT_TRANSACTIONS
    // that kafkajs logs as an error before retrying; a real failure still rejects the awaited call.
    const quiet = new Kafka({ brokers: settings.brokers, logLevel: logLevel.NOTHING });
    const producer = quiet.producer({
      transactionalId: `${settings.prefix}export-test`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    const send = async (n: number, commit: boolean) => {
      const transaction = await producer.transaction();
      await transaction.send({
        topic: settings.prefix + topic,
        messages: [0, 1].map((p) => ({ partition: p, key: `k${p}`, value: JSON.stringify({ n, p }) })),
      });
      await (commit ? transaction.commit() : transaction.abort());
    };
    await send(1, true);
    await send(2, false);
    await send(3, true);
    await producer.disconnect();

    const { lines, stderr } = await exportLines('--topic', topic);
    expect(lines.map((l) => l.payload).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      { n: 1, p: 0 },
      { n: 1, p: 1 },
      { n: 3, p: 0 },
      { n: 3, p: 1 },
    ]);
    expect(stderr).toMatch(/^export: done, 4 records read, 4 exported in /m);
  });

  it('refuses an unknown topic and an inverted window with a clear message', async () => {
    await expect(run('node', [cli, 'export', '--topic', 'nope.v1'], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`topic ${settings.prefix}nope.v1 does not exist`),
    });
    await expect(
      run('node', [cli, 'export', '--topic', 'ingest.events.v1', '--since', minute(5), '--until', minute(1)], { env }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--since is after --until') });
  });
});
