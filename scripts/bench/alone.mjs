#!/usr/bin/env node
// `npm run bench:alone -- --app scoring-worker|projector [--rounds N] [variant …]`: one app alone on
// the backlog of a kept bench database (`npm run bench -- --quick --keep-database`), from scratch,
// once per variant and round, alternating. Prints the app's CPU per event (from /proc), Postgres's,
// its peak RSS (VmHWM) and the machine's time stolen by the hypervisor meanwhile: the figures by
// which a change to one app is judged (docs/performance.md), without the noise of the other apps.
// It rewrites the kept database's read models; drop it afterwards (`DROP DATABASE agentwatch_bench`).
//
// A variant is a comma-separated list of node flags (`--max-old-space-size=384`), environment
// variables (`MALLOC_ARENA_MAX=2`), `CWD=<checkout>` (another build of the apps, say a git
// worktree of the old commit) and `NODE=<node binary>` (the app runs on it instead of the node
// running this script, say another Node version). `default` is the flags `npm start` uses, also
// within a list (`default,--single-threaded-gc`: those flags and one more); a variant that names no
// flag gets them too (`NODE=…` compares Node versions on the same flags); `none` is no flags at all
// (V8's own defaults). Default: `default`.
import fs from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { appNodeFlags, CELL_SERVER_URL, die, root } from '../lib.mjs';
import { progressReader } from './progress.mjs';
import {
  machineCpuSeconds,
  peakRssMb,
  processCounters,
  serverCpuSeconds,
  startApp,
  stolenShare,
  stopApp,
} from './stack.mjs';

// By hand, not parseArgs: a variant may itself start with `--` (a node flag).
function readArgs(argv) {
  const values = { rounds: '1' };
  const positionals = [];
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    if (name === '--app' || name === '--rounds') values[name.slice(2)] = inline ?? argv[++i];
    else positionals.push(argv[i]);
  }
  return { values, positionals };
}
const { values, positionals } = readArgs(process.argv.slice(2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Per app: the projections it runs (consumer-group suffixes; the first one's checkpoints say it is
 * done), the Kafka consumer group they share, and the read models they write.
 */
const APPS = {
  'scoring-worker': {
    projections: ['scoring-worker.scores'],
    consumerGroup: 'scoring-worker.scores',
    tables: ['event_scores', 'score_verdicts', 'scoring_graph_nodes', 'event_hourly_risk'],
  },
  projector: {
    projections: ['projector.events', 'projector.sessions', 'projector.agents'],
    consumerGroup: 'projector.ingest', // one fetch and decode per record for the three
    tables: ['events', 'event_hourly_counts', 'sessions', 'agents'],
  },
};
const app = APPS[values.app] ?? die(`--app must be one of: ${Object.keys(APPS).join(', ')}`);
const variants = positionals.length > 0 ? positionals : ['default'];

const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
databaseUrl.pathname = '/agentwatch_bench';
const db = new pg.Client({ connectionString: databaseUrl.toString() });
await db
  .connect()
  .catch(() => die('no agentwatch_bench database: run `npm run bench -- --quick --keep-database` first'));
const prefix = (
  await db.query(`SELECT split_part(consumer_group, '.', 1) || '.' AS prefix FROM projection_checkpoints LIMIT 1`)
).rows[0]?.prefix;
if (!prefix) die('agentwatch_bench has no checkpoints: keep the database of a finished bench run');
const admin = new Kafka({
  brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
  logLevel: logLevel.NOTHING,
}).admin();
await admin.connect();
const progress = progressReader({ databaseUrl: databaseUrl.toString(), admin, prefix });
const target = await progress.highWatermark();
const measured = app.projections[0].split('.').pop(); // progress.applied() keys groups by their last segment
const logDir = path.join(root, 'bench', 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}-alone-logs`);
fs.mkdirSync(logDir, { recursive: true });

/** The bench's provisioned tenants' databases, on the shared server and the second cell's. */
async function tenantDatabases() {
  const servers = [new URL(databaseUrl), new URL(CELL_SERVER_URL)];
  const found = [];
  for (const server of servers) {
    server.pathname = '/postgres';
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    const { rows } = await client
      .query(`SELECT datname FROM pg_database WHERE datname LIKE 'tenant\\_bench\\_%'`)
      .finally(() => client.end());
    for (const { datname } of rows) {
      const url = new URL(server);
      url.pathname = `/${datname}`;
      found.push(url.toString());
    }
  }
  return found;
}

async function startOver() {
  // The provisioned tenants' rows and checkpoints live in their own databases: emptied the same way.
  for (const url of [databaseUrl.toString(), ...(await tenantDatabases())]) {
    const target = new pg.Client({ connectionString: url });
    await target.connect();
    try {
      await target.query(`TRUNCATE ${app.tables.join(', ')}`);
      await target.query('DELETE FROM projection_checkpoints WHERE consumer_group = ANY($1)', [
        app.projections.map((p) => prefix + p),
      ]);
    } finally {
      await target.end();
    }
  }
  await db.query('CHECKPOINT'); // the previous run's dirty pages are not this run's work
  // Without a checkpoint the runner starts from the group's committed offsets: rewind them too.
  for (const topic of [progress.topic, `${prefix}ingest.sessions.v1`]) {
    await admin.resetOffsets({ groupId: prefix + app.consumerGroup, topic, earliest: true }).catch(() => {});
  }
}

async function runOnce(variant) {
  const listed = variant.split(',').filter(Boolean);
  const flagged = listed.some((p) => p.startsWith('--') || p === 'default' || p === 'none');
  const parts = [...(flagged ? [] : ['default']), ...listed].flatMap(
    (part) => ({ default: appNodeFlags(values.app), none: [] })[part] ?? [part],
  );
  const unknown = parts.find((p) => !p.startsWith('--') && !p.includes('='));
  if (unknown) die(`variant part "${unknown}" is neither a --flag nor NAME=value`);
  const settings = Object.fromEntries(parts.filter((p) => !p.startsWith('--')).map((p) => p.split(/=(.*)/s, 2)));
  const { CWD: cwd = root, NODE: node, ...extraEnv } = settings;
  await startOver();
  const started = await startApp(
    values.app,
    {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      KAFKA_TOPIC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    { logDir, nodeFlags: parts.filter((p) => p.startsWith('--')), cwd, node },
  );
  const { pid } = started.child;
  const fail = async (message) => {
    await stopApp(started);
    die(`${message}; its log is in ${path.relative(root, logDir)}`);
  };
  // Measured from its first committed batch, so start-up and the group join are not counted.
  let first = null;
  let done = 0;
  let movedAt = performance.now();
  while (done < target) {
    await sleep(250);
    if (started.child.exitCode !== null) await fail(`${values.app} exited with ${started.child.exitCode}`);
    const now = (await progress.applied())[measured] ?? 0;
    if (now > done) movedAt = performance.now();
    done = now;
    if (done > 0 && !first) {
      first = {
        at: performance.now(),
        ...processCounters(pid),
        ...serverCpuSeconds(),
        machine: machineCpuSeconds(),
        done,
      };
    }
    if (performance.now() - movedAt > 120_000) {
      await fail(`${values.app} made no progress for 2 minutes at ${done}/${target}`);
    }
  }
  const last = {
    at: performance.now(),
    ...processCounters(pid),
    ...serverCpuSeconds(),
    machine: machineCpuSeconds(),
  };
  const peak = peakRssMb(pid);
  await stopApp(started);
  const events = target - first.done;
  if (events === 0) die('the first committed batch held the whole backlog: keep a larger bench database');
  const perEvent = (seconds) => Math.round((seconds / events) * 1e6);
  return {
    variant,
    events,
    eventsPerSecond: Math.round(events / ((last.at - first.at) / 1000)),
    cpuUsPerEvent: perEvent(last.cpu - first.cpu),
    // Of which in the kernel, and the page faults behind much of that.
    systemUsPerEvent: perEvent(last.systemCpu - first.systemCpu),
    minorFaultsPerEvent: Number(((last.minorFaults - first.minorFaults) / events).toFixed(2)),
    postgresUsPerEvent: perEvent(last.postgres - first.postgres),
    peakRssMb: peak,
    // Runs are comparable at similar steal only (docs/performance.md).
    stolenPercent: Number((stolenShare(first.machine, last.machine) * 100).toFixed(1)),
  };
}

console.log(
  `${values.app} alone on ${target} events of ${prefix}*, ${values.rounds} round(s) of: ${variants.join(' | ')}`,
);
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const variant of variants) console.log(JSON.stringify(await runOnce(variant)));
  }
} finally {
  await progress.end();
  await db.end();
  await admin.disconnect();
}
