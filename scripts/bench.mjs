#!/usr/bin/env node
// `npm run bench [-- --quick | --full]`: sets up a stack of its own (database agentwatch_bench, topic
// prefix bench-<ts>.), runs the apps as separate processes on free ports, measures the figures of docs/performance.md
// and their physical references in the same run, prints one table, writes bench/results/<ts>.json,
// and removes its database and topics again. The shared broker and Postgres are only used, never
// started twice or stopped.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { benchOptions } from './bench/options.mjs';
import { applyServerSettings, WRITE_HEAVY, walCounters, walPerEvent, withClient } from './bench/postgres.mjs';
import { progressReader, rateOf } from './bench/progress.mjs';
import { queryLatencies, replayAll } from './bench/queries.mjs';
import { kafkaLibs, producerPerformance, rawCopy } from './bench/references.mjs';
import { efficiency, renderTable } from './bench/report.mjs';
import {
  cpuSeconds,
  machineCpuSeconds,
  peakRssMb,
  serverCpuSeconds,
  startApp,
  stolenShare,
  stopApp,
} from './bench/stack.mjs';
import {
  build,
  CELL_SERVER_URL,
  cli,
  ensureCellServer,
  ensureDependencies,
  ensureKafka,
  ensurePostgres,
  root,
  say,
} from './lib.mjs';

const options = benchOptions();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
base.pathname = '/agentwatch_bench';
const prefix = `bench-${Date.now().toString(36)}.`;
const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092';
const env = {
  ...process.env,
  DATABASE_URL: base.toString(),
  KAFKA_TOPIC_PREFIX: prefix,
  LOG_LEVEL: 'warn',
  // The bench offers far more than one organization's production quota: the limiter is not under test.
  INGEST_RATE_LIMIT_RPS: '1000000',
  INGEST_RATE_LIMIT_BURST: '1000000',
};
const logDir = path.join(root, 'bench', 'results', `${stamp}-logs`);
const E2E_PREBUILT_MAX = 400_000;

ensureDependencies();
if (options.build) build();
await ensurePostgres(env.DATABASE_URL);
ensureCellServer();
ensureKafka(); // starts a broker only when none answers
fs.mkdirSync(logDir, { recursive: true });
if (options.cpuProf) fs.mkdirSync(path.join(root, 'bench', 'profiles'), { recursive: true });
say(`bench (${options.mode}): database agentwatch_bench, topics ${prefix}*, logs ${path.relative(root, logDir)}`);
await dropBenchDatabase(); // a previous run that was killed may have left it behind
cli(['setup'], env);
// Checkpoint spacing for a write-heavy run, on the shared server for this run only (put back at the end).
const server = await applyServerSettings(env.DATABASE_URL, options.postgresAsIs ? {} : WRITE_HEAVY);
say(
  `Postgres: ${Object.entries(server.inEffect)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ')}`,
);
const walNow = () => walCounters(env.DATABASE_URL);

const require = createRequire(import.meta.url);
const bench = require(path.join(root, 'dist/libs/bench/src/index.js'));
const { databaseConfigFromEnv } = require(path.join(root, 'dist/libs/db/src/index.js'));
const { createTopic, kafkaSettingsFromEnv } = require(path.join(root, 'dist/libs/kafka/src/index.js'));

const admin = new Kafka({
  clientId: 'agentwatch-bench',
  brokers: brokers.split(','),
  logLevel: logLevel.NOTHING,
}).admin();
await admin.connect();
const progress = progressReader({ databaseUrl: env.DATABASE_URL, admin, prefix });
const apps = {};
let tenants = [];
const result = {
  options,
  startedAt: new Date().toISOString(),
  machine: machineFacts(),
  postgres: { writeHeavySettingsApplied: server.applied, settings: server.inEffect },
};

let cleaning;
const finish = () => {
  cleaning ??= (async () => {
    for (const app of Object.values(apps)) await stopApp(app);
    await progress.end().catch(() => {});
    try {
      await cleanUp();
    } finally {
      await server.restore();
    }
    await admin.disconnect();
  })();
  return cleaning;
};
// Ctrl-C still removes the bench's database and topics.
process.once('SIGINT', () => finish().finally(() => process.exit(130)));
try {
  await run();
} catch (error) {
  // What the finished phases measured is kept: a full run takes the better part of an hour.
  const file = path.join(root, 'bench', 'results', `${stamp}-partial.json`);
  fs.writeFileSync(file, `${JSON.stringify({ ...result, error: error.stack }, null, 2)}\n`);
  say(`stopped by an error; what was measured is in ${path.relative(root, file)}`);
  throw error;
} finally {
  await finish();
}

async function run() {
  const organizations = await bench.createBenchOrganizations(databaseConfigFromEnv(env), options.organizations);
  // Part of the fleet is provisioned tenants, routed to databases of their own on both cells' servers.
  tenants = await bench.provisionBenchTenants(
    databaseConfigFromEnv(env),
    kafkaSettingsFromEnv('agentwatch-bench', env),
    organizations.slice(0, options.provisioned),
    benchCells(),
  );
  result.provisioned = { tenants: tenants.length, cells: new Set(tenants.map((t) => t.cell.id)).size };
  apps['cloud-api'] = await startApp('cloud-api', env, { ...options, logDir, stamp });
  const apiUrl = apps['cloud-api'].url;
  const fleet = new bench.Fleet({
    daemons: options.daemons,
    batch: options.batch,
    events: options.events,
    seed: options.seed,
    organizations: options.organizations,
    eventIds: true,
    startMs: Date.now() - 2 * 3_600_000,
  });
  const tokens = await bench.registerDaemons(
    apiUrl,
    fleet.daemons,
    organizations.map((o) => o.deployToken),
  );
  // A batch the API refused (an error status, or no answer) is sent again after its phase, unmeasured,
  // like the batches a phase did not reach: the fleet's sessions, which the queries ask for, stay whole.
  const refused = [];
  const send = { apiUrl, tokens, concurrency: options.concurrency, onRefused: (batch) => refused.push(batch) };
  result.resent = {};
  const resendRefused = async (phase) => {
    const counts = { batches: refused.length, attempts: 0 };
    while (refused.length > 0 && counts.attempts < 5) {
      counts.attempts++;
      if (counts.attempts > 1) await new Promise((resolve) => setTimeout(resolve, 1000 * counts.attempts));
      await bench.sendBatches(refused.splice(0), send);
    }
    counts.stillRefused = refused.splice(0).length;
    if (counts.batches > 0) result.resent[phase] = counts;
  };
  result.recordSize = recordSize(fleet);

  // CPU per accepted event is steadier than a rate on a shared machine: it is what each request costs.
  const apiCpu = () => cpuSeconds(apps['cloud-api'].child.pid);
  const ownCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  // The load generator shares the two cores: its items are generated and serialized before the
  // timed phase, and what that cost is kept apart from what sending them cost.
  const prepared = (events, batch) => {
    const before = ownCpu();
    const batches = bench.prepareBatches(fleet.batches(events, batch));
    const items = batches.reduce((n, b) => n + b.size, 0);
    return { batches, items, prepareCpuUsPerEvent: ((ownCpu() - before) * 1e6) / Math.max(1, items) };
  };
  const measured = async ({ batches, prepareCpuUsPerEvent }) => {
    const [api, own] = [apiCpu(), ownCpu()];
    const sent = accepted(await bench.sendBatches(batches, send));
    return {
      ...sent,
      apiCpuUsPerEvent: ((apiCpu() - api) * 1e6) / sent.accepted,
      loadGeneratorCpuUsPerEvent: ((ownCpu() - own) * 1e6) / sent.accepted,
      prepareCpuUsPerEvent,
    };
  };
  // The ingest path alone first (a burst Kafka absorbs while the read side is down or behind); its
  // events are the backlog the projector then starts on, which gives the catch-up rate.
  say(`ingest accept rate, ingest path alone: ${options.aloneEvents} items at batch ${options.batch}…`);
  // A few unmeasured batches first: connections, JIT and the producer's metadata warm up.
  await bench.sendBatches(fleet.batches(20 * options.batch, options.batch), send);
  result.ingestAlone = await measured(prepared(options.aloneEvents, options.batch));
  await resendRefused('ingestAlone');
  say('projector catch-up: started on that backlog…');
  apps.projector = await startApp('projector', env, { ...options, logDir, stamp });
  const backlog = await progress.waitCaughtUp('events');
  result.projectorBacklogRate = rateOf(backlog.samples);

  say(
    `ingest accept rate, projector running: ${options.events} items at batch ${options.batch}, ${options.smallEvents} at batch 50…`,
  );
  result.ingest500 = await measured(prepared(options.events, options.batch));
  result.ingest50 = await measured(prepared(options.smallEvents, 50));
  await resendRefused('ingest');
  await progress.waitCaughtUp('events');

  // What each process spent per event over a phase: it moves far less than rates with how fast the
  // shared machine happens to be, so it shows what a change saved. Postgres and the broker included.
  const cpuNow = () => ({
    ...Object.fromEntries(Object.values(apps).map((a) => [a.app, cpuSeconds(a.child.pid)])),
    ...serverCpuSeconds(),
    bench: ownCpu(),
  });
  // Each process's CPU seconds between two cpuNow() readings, divided by `per`.
  const cpuBetween = (from, to, per) =>
    Object.fromEntries(
      Object.keys(to)
        .filter((key) => from[key] != null && to[key] != null)
        .map((key) => [key, (to[key] - from[key]) / per]),
    );
  const cpuPerEvent = (from, to, events) => cpuBetween(from, to, events / 1e6);

  // What the phase is expected to send, with a margin, built up front (at most about 110 MB of bodies);
  // a phase that outruns it goes on with batches built as it sends. What it leaves unsent is sent
  // after it, unmeasured, so the fleet's traffic (and the sessions the queries probe) stays whole.
  const expected = Math.ceil((result.ingest500.rate * options.durationS * 1.25) / options.batch) * options.batch;
  const e2eBatches = prepared(Math.min(expected, E2E_PREBUILT_MAX), options.batch);
  let e2eSent = 0;
  say(`sustained end-to-end: offering as fast as accepted for ${options.durationS}s, then until projected…`);
  const before = (await progress.applied()).events ?? 0;
  const e2eCpu = cpuNow();
  const e2eMachine = machineCpuSeconds();
  const e2eWal = await walNow();
  const e2eStart = performance.now();
  const offered = await bench.sendBatches(
    (function* () {
      while (e2eSent < e2eBatches.batches.length) yield e2eBatches.batches[e2eSent++];
      yield* fleet.batches(Number.MAX_SAFE_INTEGER, options.batch);
    })(),
    { ...send, durationMs: options.durationS * 1000 },
  );
  const lagAtEnd = await progress.lag('events');
  const projected = await progress.waitCaughtUp('events');
  result.endToEnd = {
    seconds: options.durationS,
    acceptedRate: accepted(offered).rate,
    lagWhenOfferEnded: lagAtEnd,
    rate: (projected.target - before) / ((projected.at - e2eStart) / 1000),
    cpuUsPerEvent: cpuPerEvent(e2eCpu, cpuNow(), projected.target - before),
    postgresWrites: walPerEvent(e2eWal, await walNow(), projected.target - before),
    stolen: stolenShare(e2eMachine, machineCpuSeconds()),
    prebuilt: e2eBatches.items,
    prepareCpuUsPerEvent: e2eBatches.prepareCpuUsPerEvent,
  };
  await bench.sendBatches(e2eBatches.batches.slice(e2eSent), send);
  e2eBatches.batches.length = 0;
  await resendRefused('endToEnd');
  await progress.waitCaughtUp('events');

  say('scoring worker: started on the whole backlog…');
  apps['scoring-worker'] = await startApp('scoring-worker', env, { ...options, logDir, stamp });
  const scoringCpu = cpuNow();
  const scoringMachine = machineCpuSeconds();
  const scoringWal = await walNow();
  const scoredBefore = (await progress.applied()).scores ?? 0;
  const scored = await progress.waitCaughtUp('scores');
  result.scoring = { records: scored.target, rate: rateOf(scored.samples), caughtUp: scored.caughtUp };
  // Scoring's whole cost: the worker and Postgres (the events routes join the scores it writes).
  result.scoring.cpuUsPerEvent = cpuPerEvent(scoringCpu, cpuNow(), scored.target - scoredBefore);
  result.scoring.postgresWrites = walPerEvent(scoringWal, await walNow(), scored.target - scoredBefore);
  result.scoring.stolen = stolenShare(scoringMachine, machineCpuSeconds());

  const freshBatch = 100;
  const markerEvery = Math.max(1, Math.round(options.rate / freshBatch / 5));
  const warmS = Math.min(5, Math.ceil(options.freshnessS / 4));
  say(
    `freshness: ${options.rate} items/s offered for ${options.freshnessS}s in batches of ${freshBatch} (after ${warmS}s unmeasured), a marker every ${markerEvery} batches…`,
  );
  // Where the markers' time goes: what the runners' stage histograms gained over the phase.
  const stageApps = { projector: apps.projector.url, 'scoring-worker': apps['scoring-worker'].url };
  // Built before the phase, like every timed phase's: the warm-up's, then enough for the whole phase
  // at the offered rate (in the fleet's order).
  const warmBatches = bench.prepareBatches(fleet.batches(options.rate * warmS, freshBatch));
  const freshBatches = bench.prepareFreshness(fleet.batches(Number.MAX_SAFE_INTEGER, freshBatch), {
    markerEvery,
    seed: options.seed,
    items: options.rate * options.freshnessS + 2 * freshBatch,
  });
  // Unmeasured first: the same load for a few seconds, so the phase measures the steady state at
  // that load, not the API's pools and caches that sat idle through the scoring phase warming up.
  await bench.sendBatches(warmBatches, { ...send, concurrency: 32, rate: options.rate });
  const stagesBefore = await bench.scrapeMetrics(stageApps);
  // Whether the phase was bound by CPU: the cores each process kept busy while the load was offered.
  const freshCpu = cpuNow();
  const freshMachine = machineCpuSeconds();
  const freshWal = await walNow();
  const freshStart = performance.now();
  const fresh = await bench.measureFreshness(
    freshBatches,
    { ...send, concurrency: 32, rate: options.rate, durationMs: options.freshnessS * 1000 },
    {
      probe: bench.apiMarkerProbe(apiUrl, tokens),
      tracking: { pollMs: 20, relativePrecision: 0.05, timeoutMs: 30_000, scored: true },
    },
  );
  const freshSeconds = (performance.now() - freshStart) / 1000;
  const freshCores = cpuBetween(freshCpu, cpuNow(), freshSeconds);
  const freshStolen = stolenShare(freshMachine, machineCpuSeconds());
  const freshAccepted = accepted(fresh.sent).accepted;
  const freshWrites = walPerEvent(freshWal, await walNow(), Math.max(1, freshAccepted));
  result.freshness = {
    coresBusy: freshCores,
    // The window the cores were measured over (the offer, then until the last marker was scored) and
    // the events accepted in it: what the processes spent per event at this load, in small batches.
    seconds: freshSeconds,
    accepted: freshAccepted,
    stolen: freshStolen,
    postgresWrites: freshWrites,
    offered: options.rate,
    achieved: accepted(fresh.sent).rate,
    method:
      'polling GET /v1/sessions/{marker}/events from the batch’s HTTP 200, every 20 ms and then after 5 % of the time waited (late by at most one poll interval, 5 % and one round trip)',
    ...fresh.freshness,
    stages: bench.stageWaits(stagesBefore, await bench.scrapeMetrics(stageApps), prefix),
  };
  await bench.sendBatches(fresh.unsent, send);
  await resendRefused('freshness');

  await progress.waitCaughtUp('events');
  // Queries measure their own service time: the scoring worker works off what the freshness phase
  // left it first (how much that was is kept), so it does not compete with them for the cores.
  result.scoresLagBeforeQueries = await progress.lag('scores');
  await progress.waitCaughtUp('scores');
  result.tableEvents = await eventsStored();
  say(`query latency over ${result.tableEvents} events in ${options.organizations} organizations…`);
  result.queries = await queryLatencies({
    apiUrl,
    tokens,
    fleet,
    count: options.queries,
    random: bench.rng(options.seed + 1),
    summarize: bench.summarize,
  });

  say('replay: agentwatch replay --projection all…');
  result.replay = await replayAll(env, path.join(logDir, 'replay.log')).catch((error) => ({ error: error.message }));
  // The target counts events: every event is one record for each of the projections that read it.
  if (result.replay.seconds) result.replay.eventsPerSecond = result.tableEvents / result.replay.seconds;

  result.peakRssMb = Object.fromEntries(Object.values(apps).map((a) => [a.app, peakRssMb(a.child.pid)]));
  result.peakRssMb.bench = Math.round(process.resourceUsage().maxRSS / 1024);
  if (result.replay.peakRssMb) result.peakRssMb.replay = result.replay.peakRssMb;

  say('references: Kafka ProducerPerformance and COPY…');
  result.references = {};
  const libs = kafkaLibs();
  if (libs) {
    const topic = `${prefix}bench.producer-performance`;
    await createTopic(admin, topic, Number(env.KAFKA_PARTITIONS ?? 12));
    result.references.producerPerformance = await producerPerformance({
      libs,
      topic,
      records: options.perfRecords,
      recordSize: result.recordSize,
      brokers,
    });
  } else {
    result.references.producerPerformance = {
      error: 'no kafka-tools jar: run npm run kafka:start once or set KAFKA_LIBS',
    };
  }
  result.references.copy = await rawCopy(env.DATABASE_URL);
  result.efficiency = efficiency(result);

  const table = renderTable(result);
  console.log(`\n${table}\n`);
  const file = path.join(root, 'bench', 'results', `${stamp}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ ...result, table }, null, 2)}\n`);
  say(`written ${path.relative(root, file)}`);
  // Every batch was accepted in the end, so every session the queries asked for should have been found.
  const unanswered = Object.entries(result.queries).filter(([, q]) => q.refused);
  const lost = Object.values(result.resent).reduce((n, r) => n + r.stillRefused, 0);
  if (unanswered.length > 0 || lost > 0) {
    console.error(
      `\x1b[31m[agentwatch] bench: ${lost} batches never accepted; queries answered other than 200: ` +
        `${unanswered.map(([name, q]) => `${name} ${q.refused.examples.join(', ')}`).join('; ') || 'none'}\x1b[0m`,
    );
    process.exitCode = 1;
  }
}

function accepted(sent) {
  return { ...sent, rate: sent.accepted / (sent.elapsedMs / 1000) };
}

/** Average size of the Kafka record value (the canonical event JSON) for the fleet's items. */
function recordSize(fleet) {
  const sample = new bench.Fleet({ ...fleet.options, events: 2_000 }).batches();
  const sizes = [];
  for (const { items } of sample)
    for (const item of items)
      if ('action_type' in item)
        sizes.push(
          JSON.stringify({
            id: '0190a0b0-0000-7000-8000-000000000000',
            org_id: '0190a0b0-0000-7000-8000-000000000000',
            client_event_id: item.event_id ?? null,
            session_id: item.session_id ?? null,
            agent_id: item.agent_id ?? null,
            machine_id: 'm-00000000-0000-4000-8000-000000000000',
            action_type: item.action_type,
            tool_name: item.tool_name ?? null,
            arguments: item.arguments ?? [],
            decision: item.decision ?? 'allow',
            timestamp: item.timestamp,
            received_at: item.timestamp,
          }).length,
        );
  return Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
}

/** Events in the shared database and in every tenant database, on both servers. */
async function eventsStored() {
  const count = async (url) =>
    (await withClient(url, (c) => c.query('SELECT count(*)::int AS n FROM events'))).rows[0].n;
  let total = await count(env.DATABASE_URL);
  for (const tenant of tenants) {
    const url = new URL(tenant.cell.admin_url);
    url.pathname = `/${tenant.database}`;
    total += await count(url.toString());
  }
  return total;
}

async function cleanUp() {
  if (options.keepDatabase) return say(`kept database agentwatch_bench and topics ${prefix}*`);
  const { createKafka, deleteTopicsWithPrefix, kafkaSettingsFromEnv } = require(
    path.join(root, 'dist/libs/kafka/src/index.js'),
  );
  await deleteTopicsWithPrefix(createKafka(kafkaSettingsFromEnv('agentwatch-bench', env)), prefix).catch((e) =>
    say(`could not delete topics ${prefix}*: ${e.message}`),
  );
  await dropBenchDatabase();
  say(`removed database agentwatch_bench, ${tenants.length} tenant databases and topics ${prefix}*`);
}

/** The two cells of the bench's provisioned tenants: the shared database's server and the second one. */
function benchCells() {
  const shared = new URL(env.DATABASE_URL);
  shared.pathname = '/postgres';
  return [
    { id: 'local-1', region: 'local', capacity: 1000, admin_url: shared.toString() },
    { id: 'cell-2', region: 'eu-2', capacity: 1000, admin_url: CELL_SERVER_URL },
  ];
}

/** The bench's databases on both servers: its shared one and its tenants' (a killed run leaves them). */
async function dropBenchDatabase() {
  for (const { admin_url: url } of benchCells()) {
    await withClient(url, async (client) => {
      const { rows } = await client.query(
        `SELECT datname FROM pg_database WHERE datname = 'agentwatch_bench' OR datname LIKE 'tenant\\_bench\\_%'`,
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    });
  }
}

function machineFacts() {
  const os = require('node:os');
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadavg: os.loadavg(),
    node: process.version,
  };
}
