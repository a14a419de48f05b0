#!/usr/bin/env node
// `npm run bench:api -- [--batch 50] [--events 30000] [--daemons 20] [--rounds 3] [--cpu-prof] [checkout …]`: the cloud API alone
// (no projector), its CPU per accepted event at one batch size, once per checkout and round,
// alternating. A checkout is a directory holding a build of the apps (a git worktree of another
// commit, built); default: this one. The per-request costs (routing, guards, logging, the command
// bus) weigh most at small batches, which the full bench measures only once per run.
//
// `--reads N` measures reads instead: N requests of each read route a live session is polled with
// (its events, an unknown session's events, its detail), one at a time, with the API's and
// Postgres's CPU per request. A projector from this checkout projects the session they read first.
//
// It sets up a database (`agentwatch_bench_api`) and a topic prefix of its own, and removes both at
// the end; the broker and Postgres are the shared ones.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { cli, ensureKafka, ensurePostgres, root, say } from '../lib.mjs';
import { cpuSeconds, serverCpuSeconds, startApp, stopApp } from './stack.mjs';

const { values, positionals } = parseArgs({
  options: {
    batch: { type: 'string', default: '50' },
    events: { type: 'string', default: '30000' },
    // Machines sending in turn: with more than a token cache's worth per 30 s, requests look their token up.
    daemons: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
    // A V8 CPU profile per run in bench/profiles (summarize with scripts/bench/profile-summary.mjs).
    'cpu-prof': { type: 'boolean', default: false },
    reads: { type: 'string' },
  },
  allowPositionals: true,
});
const batch = Number(values.batch);
const events = Number(values.events);
const daemons = Number(values.daemons);
const checkouts = positionals.length > 0 ? positionals.map((p) => path.resolve(p)) : [root];

const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
databaseUrl.pathname = '/agentwatch_bench_api';
const prefix = `bench-api-${Date.now().toString(36)}.`;
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl.toString(),
  KAFKA_TOPIC_PREFIX: prefix,
  LOG_LEVEL: 'warn',
  INGEST_RATE_LIMIT_RPS: '1000000',
  INGEST_RATE_LIMIT_BURST: '1000000',
};
const organizations = 20;

await ensurePostgres(env.DATABASE_URL);
ensureKafka();
cli(['setup'], env);
const require = createRequire(import.meta.url);
const bench = require(path.join(root, 'dist/libs/bench/src/index.js'));
const { databaseConfigFromEnv } = require(path.join(root, 'dist/libs/db/src/index.js'));
const deployTokens = (await bench.createBenchOrganizations(databaseConfigFromEnv(env), organizations)).map(
  (o) => o.deployToken,
);
const logDir = path.join(root, 'bench', 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}-api-logs`);
fs.mkdirSync(logDir, { recursive: true });

async function runOnce(cwd, round) {
  const stamp = `${path.basename(cwd)}-${round}`;
  const app = await startApp('cloud-api', env, { logDir, cwd, cpuProf: values['cpu-prof'], stamp });
  try {
    const fleet = new bench.Fleet({
      daemons,
      batch,
      events: Number.MAX_SAFE_INTEGER,
      seed: round + 1,
      organizations,
      eventIds: true,
      startMs: Date.now() - 3_600_000,
    });
    const tokens = await bench.registerDaemons(app.url, fleet.daemons, deployTokens);
    const send = { apiUrl: app.url, tokens, concurrency: 8 };
    await bench.sendBatches(fleet.batches(40 * batch, batch), send); // warm-up: connections, JIT, metadata
    if (values.reads) return await measureReads(app, fleet, tokens, send);
    const before = cpuSeconds(app.child.pid);
    const sent = await bench.sendBatches(fleet.batches(events, batch), send);
    if (sent.accepted !== events) throw new Error(`${sent.accepted} of ${events} accepted: ${JSON.stringify(sent)}`);
    return ((cpuSeconds(app.child.pid) - before) * 1e6) / events;
  } finally {
    await stopApp(app);
  }
}

/** CPU per request of each read route, one request at a time, once the session they read is projected. */
async function measureReads(app, fleet, tokens, send) {
  const [sample] = [...fleet.batches(batch, batch)];
  await bench.sendBatches([sample], send);
  const session = sample.items.find((item) => item.session_id)?.session_id;
  const headers = { authorization: `Bearer ${tokens[sample.daemon]}` };
  const get = async (route) => {
    const response = await fetch(`${app.url}${route}`, { headers });
    await response.arrayBuffer();
    return response.status;
  };
  const routes = {
    'session events': [`/v1/sessions/${session}/events`, 200],
    'unknown session events': [`/v1/sessions/${randomUUID()}/events`, 404],
    'session detail': [`/v1/sessions/${session}`, 200],
  };
  const projector = await startApp('projector', env, { logDir, stamp: 'reads' });
  try {
    for (let tries = 0; (await get(routes['session events'][0])) !== 200; tries++) {
      if (tries > 300) throw new Error(`session ${session} was not projected within a minute`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await stopApp(projector);
  }
  const listed = await fetch(`${app.url}${routes['session events'][0]}`, { headers });
  const eventsInSession = (await listed.json()).events.length;
  const perRoute = {};
  const reads = Number(values.reads);
  for (const [name, [route, status]] of Object.entries(routes)) {
    for (let i = 0; i < Math.min(reads, 300); i++) await get(route); // warm-up: JIT, connections, statements
    const api = cpuSeconds(app.child.pid);
    const postgres = serverCpuSeconds().postgres;
    const started = performance.now();
    for (let i = 0; i < reads; i++) {
      const answered = await get(route);
      if (answered !== status) throw new Error(`${route} answered ${answered}, not ${status}`);
    }
    perRoute[name] = {
      apiUs: Math.round(((cpuSeconds(app.child.pid) - api) * 1e6) / reads),
      postgresUs: Math.round(((serverCpuSeconds().postgres - postgres) * 1e6) / reads),
      wallMs: Number(((performance.now() - started) / reads).toFixed(2)),
    };
  }
  return { eventsInSession, perRoute };
}

say(
  values.reads
    ? `cloud-api alone: ${values.reads} requests of each read route, ${values.rounds} round(s) of ${checkouts.join(' | ')}`
    : `cloud-api alone: ${events} items at batch ${batch} from ${daemons} daemons, ${values.rounds} round(s) of ${checkouts.join(' | ')}`,
);
const results = Object.fromEntries(checkouts.map((c) => [c, []]));
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const cwd of checkouts) {
      const measured = await runOnce(cwd, round);
      results[cwd].push(measured);
      console.log(
        JSON.stringify(
          values.reads
            ? { checkout: cwd, round, cpuPerRequest: measured }
            : { checkout: cwd, round, cpuUsPerEvent: Number(measured.toFixed(1)) },
        ),
      );
    }
  }
  for (const [cwd, runs] of Object.entries(results)) {
    if (values.reads) {
      console.log(`${cwd}: events in the session read: ${runs.map((r) => r.eventsInSession).join(', ')}`);
      for (const name of Object.keys(runs[0].perRoute)) {
        const of = (field) => runs.map((r) => r.perRoute[name][field]).join(', ');
        console.log(
          `${cwd}: ${name}: api ${of('apiUs')} µs, Postgres ${of('postgresUs')} µs, ${of('wallMs')} ms per request`,
        );
      }
      continue;
    }
    const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
    console.log(`${cwd}: mean ${mean.toFixed(1)} µs per event (${runs.map((r) => r.toFixed(1)).join(', ')})`);
  }
} finally {
  const admin = new Kafka({
    brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
  if (topics.length > 0) await admin.deleteTopics({ topics });
  await admin.disconnect();
  const server = new URL(databaseUrl);
  server.pathname = '/postgres';
  const db = new pg.Client({ connectionString: server.toString() });
  await db.connect();
  await db.query('DROP DATABASE IF EXISTS agentwatch_bench_api WITH (FORCE)');
  await db.end();
}
