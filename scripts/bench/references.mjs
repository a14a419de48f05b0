// The physical references measured in the same run: Kafka's own producer benchmark against the same
// broker, and Postgres COPY of the very rows the projector wrote.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { root } from '../lib.mjs';

const hasTools = (dir) => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.startsWith('kafka-tools-'));

/**
 * The pinned Kafka version's jars (kafka-tools among them): KAFKA_LIBS, this clone's
 * `npm run kafka:start` cache, or fetched into that cache with Maven as kafka.mjs does (when the
 * broker in use was started from another checkout). Null when none can be had.
 */
export function kafkaLibs() {
  const cache = path.join(root, '.local', 'kafka', 'libs');
  const found = [process.env.KAFKA_LIBS, cache].filter(Boolean).find(hasTools);
  if (found) return found;
  const pom = path.join(root, 'tools', 'kafka', 'pom.xml');
  const mvn = spawnSync(
    'mvn',
    ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${cache}`, '-DincludeScope=runtime'],
    { stdio: 'inherit' },
  );
  return mvn.status === 0 && hasTools(cache) ? cache : null;
}

/**
 * `org.apache.kafka.tools.ProducerPerformance` with the producer settings our ingest uses (acks=all,
 * idempotence), the same record size as our average item JSON, unthrottled. Returns records/s.
 */
export function producerPerformance({ libs, topic, records, recordSize, brokers }) {
  const args = [
    '-Xmx512m',
    `-Dlog4j2.configurationFile=${path.join(root, 'tools', 'kafka', 'log4j2.properties')}`,
    '-cp',
    `${libs}/*`,
    'org.apache.kafka.tools.ProducerPerformance',
    '--topic',
    topic,
    '--num-records',
    String(records),
    '--record-size',
    String(recordSize),
    '--throughput',
    '-1',
    '--producer-props',
    `bootstrap.servers=${brokers}`,
    'acks=all',
    'enable.idempotence=true',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      // The summary line: "200000 records sent, 81234.5 records/sec (25.1 MB/sec), 310.2 ms avg latency, …"
      const summary = [...out.matchAll(/(\d+) records sent, ([\d.]+) records\/sec.*?([\d.]+) ms avg latency/g)].pop();
      if (code !== 0 || !summary) reject(new Error(`ProducerPerformance exited ${code}:\n${out.slice(-2000)}`));
      else resolve({ records: Number(summary[1]), rate: Number(summary[2]), avgLatencyMs: Number(summary[3]) });
    });
  });
}

/**
 * COPY of the rows of `events` into an identical scratch table (same columns, defaults, indexes and
 * constraints): the rows are first copied out to a file, and only the COPY FROM is timed.
 */
export async function rawCopy(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentwatch-bench-')), 'events.copy');
  try {
    await client.query('DROP TABLE IF EXISTS bench_copy_scratch');
    await client.query('CREATE TABLE bench_copy_scratch (LIKE events INCLUDING ALL)');
    await pipeline(client.query(copyStreams.to('COPY events TO STDOUT')), fs.createWriteStream(file));
    const start = performance.now();
    const into = client.query(copyStreams.from('COPY bench_copy_scratch FROM STDIN'));
    await pipeline(fs.createReadStream(file), into);
    const seconds = (performance.now() - start) / 1000;
    return { rows: into.rowCount, seconds, rate: into.rowCount / seconds };
  } finally {
    await client.query('DROP TABLE IF EXISTS bench_copy_scratch').catch(() => {});
    await client.end();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
