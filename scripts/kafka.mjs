#!/usr/bin/env node
// Runs a real single-node Apache Kafka broker (KRaft, broker+controller in one JVM) from Maven Central
// jars, because the build machines have no Docker engine. `start`, `stop` and `status` are idempotent.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const home = path.join(root, '.local', 'kafka');
const libs = path.join(home, 'libs');
const dataDir = path.join(home, 'data');
const logFile = path.join(home, 'broker.log');
const pidFile = path.join(home, 'broker.pid');
const propsFile = path.join(home, 'server.properties');
const pom = path.join(root, 'tools', 'kafka', 'pom.xml');
const port = Number(process.env.KAFKA_PORT ?? 9092);
const controllerPort = Number(process.env.KAFKA_CONTROLLER_PORT ?? port + 1);
const startTimeoutMs = Number(process.env.KAFKA_START_TIMEOUT_MS ?? 90_000);

const log = (msg) => console.log(`[kafka] ${msg}`);

function fail(msg) {
  console.error(`[kafka] ERROR: ${msg}`);
  if (fs.existsSync(logFile)) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    console.error(`[kafka] last lines of ${path.relative(root, logFile)}:\n${tail}`);
  }
  process.exit(1);
}

function runningPid() {
  if (!fs.existsSync(pidFile)) return null;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function portOpen(p) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: p });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// A broker "answers" when a Kafka client gets cluster metadata from it, not merely when the port is open.
async function answersMetadata() {
  const { Kafka, logLevel } = await import('kafkajs');
  const admin = new Kafka({
    clientId: 'agentwatch-kafka-script',
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 1000,
  }).admin();
  try {
    await admin.connect();
    const cluster = await admin.describeCluster();
    return cluster.brokers.length > 0;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function fetchJars() {
  const stamp = path.join(libs, '.pom-stamp');
  const pomText = fs.readFileSync(pom, 'utf8');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === pomText) return;
  log('fetching the broker jars from Maven Central (first run only)…');
  fs.rmSync(libs, { recursive: true, force: true });
  const mvn = spawnSync(
    'mvn',
    ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', `-DoutputDirectory=${libs}`, '-DincludeScope=runtime'],
    { stdio: 'inherit' },
  );
  if (mvn.status !== 0)
    fail('mvn dependency:copy-dependencies failed (is Maven installed and Maven Central reachable?)');
  fs.writeFileSync(stamp, pomText);
}

function java(mainClass, args, options = {}) {
  return [
    [
      '-Xms256m',
      '-Xmx1g',
      '-XX:+UseG1GC',
      `-Dlog4j2.configurationFile=${path.join(root, 'tools', 'kafka', 'log4j2.properties')}`,
      '-cp',
      `${libs}/*`,
      mainClass,
      ...args,
    ],
    options,
  ];
}

function renderConfig() {
  const template = fs.readFileSync(path.join(root, 'tools', 'kafka', 'server.properties.template'), 'utf8');
  const rendered = template
    .replaceAll('@PORT@', String(port))
    .replaceAll('@CONTROLLER_PORT@', String(controllerPort))
    .replaceAll('@DATA_DIR@', dataDir);
  fs.writeFileSync(propsFile, rendered);
}

function formatStorage() {
  if (fs.existsSync(path.join(dataDir, 'meta.properties'))) return;
  // kafka-storage's argument parser reads an id that starts with '-' as an option and refuses to
  // format (one start in 64); Kafka's own Uuid.randomUuid() draws again in that case too.
  let clusterId;
  do clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-'));
  log(`formatting KRaft storage (cluster ${clusterId})`);
  const [args] = java('kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', propsFile]);
  const res = spawnSync('java', args, { encoding: 'utf8' });
  if (res.status !== 0) fail(`storage format failed:\n${res.stdout}\n${res.stderr}`);
}

async function start() {
  if (runningPid() && (await answersMetadata())) {
    log(`already running on 127.0.0.1:${port} (pid ${runningPid()})`);
    return;
  }
  if (!runningPid() && (await portOpen(port))) {
    fail(`port ${port} is taken by another process; set KAFKA_PORT or KAFKA_BROKERS to use an existing broker`);
  }
  fs.mkdirSync(home, { recursive: true });
  fetchJars();
  renderConfig();
  formatStorage();
  if (!runningPid()) {
    const out = fs.openSync(logFile, 'a');
    const [args] = java('kafka.Kafka', [propsFile]);
    const child = spawn('java', args, { detached: true, stdio: ['ignore', out, out] });
    fs.writeFileSync(pidFile, String(child.pid));
    child.unref();
    log(`starting broker (pid ${child.pid}), log in ${path.relative(root, logFile)}`);
  }
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (!runningPid()) fail('the broker process exited during start-up');
    if (await answersMetadata()) {
      log(`ready on 127.0.0.1:${port}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fail(`the broker did not answer metadata requests within ${startTimeoutMs / 1000}s`);
}

async function stop() {
  const pid = runningPid();
  if (!pid) {
    log('not running');
    fs.rmSync(pidFile, { force: true });
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && runningPid()) await new Promise((r) => setTimeout(r, 200));
  if (runningPid()) process.kill(pid, 'SIGKILL');
  fs.rmSync(pidFile, { force: true });
  log('stopped');
}

async function status() {
  const pid = runningPid();
  const answering = await answersMetadata();
  log(`${pid ? `process ${pid}` : 'no process'}; ${answering ? `answering on 127.0.0.1:${port}` : 'not answering'}`);
  process.exitCode = answering ? 0 : 1;
}

const commands = { start, stop, status };
const command = commands[process.argv[2]];
if (!command) {
  console.error('usage: kafka.mjs start|stop|status');
  process.exit(2);
}
await command();
