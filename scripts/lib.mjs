// Set-up shared by `npm start` and `npm test`. Uses only Node built-ins until dependencies are installed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/agentwatch';

/**
 * V8 flags per app. The hot paths allocate many short-lived objects (decoded records, row arrays,
 * encode buffers): a larger young generation lets most of them die before a scavenge has to copy
 * them (the bench measures it: GC share in the CPU profiles). The scoring worker keeps V8's default
 * young generation, which holds its peak RSS lower.
 *
 * The projector's and the worker's old generations are capped. On a 24 GB machine (heap limit
 * 4,144 MB) V8 lets a heap whose live data is 55–80 MB grow to 180–280 MB before it collects;
 * with up to 90 MB of buffers in flight besides, the worker reached 513 MB on a backlog and the
 * projector 501 MB. A cap alone makes V8 collect far more often, because its growth factor shrinks
 * with the cap; a fixed growth factor of 4 keeps collections about as rare as without one. What each
 * costs and saves: docs/adr/0009-capped-old-generation.md.
 */
const CAPPED_OLD_GENERATION = ['--max-old-space-size=384', '--heap-growing-percent=300'];
// `agentwatch replay` runs the projections in its own process, so it gets the cap too: replaying
// 2.4M records peaked at 462–474 MB with V8's defaults and at 414–416 MB capped, at the same speed.
// package.json's `cli` script repeats these flags and the allocator settings below (an npm script
// cannot import them).
const NODE_FLAGS = {
  'scoring-worker': CAPPED_OLD_GENERATION,
  projector: ['--max-semi-space-size=32', ...CAPPED_OLD_GENERATION],
  cli: CAPPED_OLD_GENERATION,
};
export const appNodeFlags = (app) => NODE_FLAGS[app] ?? ['--max-semi-space-size=32'];

/**
 * glibc's allocator settings for the apps (docs/adr/0019-allocator-thresholds.md). The hot paths
 * allocate buffers of hundreds of kB (a produce request, a fetch response, a batch's binary columns):
 * by default glibc maps each one afresh and gives the memory back when it is freed, so each of its
 * pages faults again on its first write, and a page fault on this kind of virtual machine costs
 * microseconds. Buffers up to 16 MB now come from the heap, which keeps up to 64 MB free before it
 * shrinks. A value the caller set wins.
 */
const ALLOCATOR_ENV = { MALLOC_MMAP_THRESHOLD_: String(16 * 2 ** 20), MALLOC_TRIM_THRESHOLD_: String(64 * 2 ** 20) };
export const appEnv = (env) => ({ ...ALLOCATOR_ENV, ...env });

export const say = (msg) => console.log(`\x1b[36m[agentwatch]\x1b[0m ${msg}`);

export function die(msg) {
  console.error(`\x1b[31m[agentwatch] FAILED: ${msg}\x1b[0m`);
  process.exit(1);
}

export function run(cmd, args, { env = process.env, what = `${cmd} ${args.join(' ')}` } = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (res.error) die(`${what}: ${res.error.message}`);
  if (res.status !== 0) die(`${what} exited with ${res.status}`);
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

/**
 * Installs the lockfile's versions when node_modules is missing or older than the lockfile. `npm
 * install` rather than `npm ci`: npm 11 drops other platforms' optional packages (Biome's binaries)
 * from the lockfile it writes and then refuses that same lockfile in `npm ci` (npm/cli#8320).
 */
export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  say('installing dependencies (npm install from package-lock.json)…');
  run('npm', ['install', '--no-audit', '--no-fund'], { what: 'npm install' });
}

export function build() {
  say('building (tsc for the apps, Vite for the consoles)…');
  run('npm', ['run', '--silent', 'build'], { what: 'build' });
}

function portOpen(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(2000);
    const answer = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => answer(true));
    socket.once('timeout', () => answer(false));
    socket.once('error', () => resolve(false));
  });
}

/** Postgres must answer on DATABASE_URL; a local cluster that is merely stopped is started. */
export async function ensurePostgres(databaseUrl) {
  const { hostname, port } = new URL(databaseUrl);
  const pgPort = Number(port || 5432);
  if (await portOpen(hostname, pgPort)) return;
  const local = ['127.0.0.1', 'localhost', '::1'].includes(hostname);
  if (local && has('pg_ctlcluster') && fs.existsSync('/etc/postgresql')) {
    for (const version of fs.readdirSync('/etc/postgresql')) {
      say(`starting the local PostgreSQL ${version} cluster…`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
    }
    for (let i = 0; i < 30; i++) {
      if (await portOpen(hostname, pgPort)) return;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  die(`PostgreSQL does not answer on ${hostname}:${pgPort}; start it or set DATABASE_URL`);
}

/** The second cell's PostgreSQL server (scripts/cell-server.mjs), started unless it answers already. */
export const CELL_SERVER_URL = `postgres://postgres@127.0.0.1:${process.env.CELL_SERVER_PORT ?? 5433}/postgres`;
export function ensureCellServer() {
  run('node', ['scripts/cell-server.mjs', 'start'], { what: "starting the second cell's PostgreSQL server" });
}

/** Starts the local broker unless KAFKA_BROKERS points elsewhere. Returns true when this call started it. */
export function ensureKafka() {
  if (process.env.KAFKA_BROKERS) {
    say(`using the Kafka cluster at ${process.env.KAFKA_BROKERS}`);
    return false;
  }
  if (!has('java')) die('java is not installed: the local Kafka broker needs a JDK 17 (or set KAFKA_BROKERS)');
  if (!has('mvn')) die('mvn is not installed: the local Kafka broker is fetched with Maven (or set KAFKA_BROKERS)');
  const status = spawnSync('node', ['scripts/kafka.mjs', 'status'], { cwd: root, stdio: 'ignore' });
  if (status.status === 0) return false;
  run('node', ['scripts/kafka.mjs', 'start'], { what: 'starting the Kafka broker' });
  return true;
}

/**
 * A Debian package the tests need, installed with apt-get when `binary` is missing; `apt-get update`
 * only when the first attempt fails, because refreshing the package lists is slow and usually unnecessary.
 */
function ensureDebianPackage(pkg, binary, manual) {
  if (has(binary)) return;
  if (!has('apt-get')) die(`${binary} is not installed and apt-get is not available: ${manual}`);
  const isRoot = process.getuid?.() === 0;
  if (!isRoot && !has('sudo')) die(`${binary} is not installed and installing it needs root: ${manual}`);
  const aptGet = (...args) => {
    const [cmd, argv] = isRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    return spawnSync(cmd, argv, { stdio: 'inherit', env }).status === 0;
  };
  say(`${binary} is missing: apt-get install -y ${pkg}…`);
  if (!aptGet('install', '-y', pkg)) {
    say('apt-get install failed; refreshing the package lists (apt-get update) and retrying…');
    if (!aptGet('update') || !aptGet('install', '-y', pkg)) die(`could not install ${pkg} with apt-get: ${manual}`);
  }
  if (!has(binary)) die(`apt-get installed ${pkg} but ${binary} is not on PATH: ${manual}`);
}

/** kcat must be on PATH: an integration test reads topics with it exactly as docs/operations.md tells people to. */
export const ensureKcat = () =>
  ensureDebianPackage(
    'kcat',
    'kcat',
    'install it (Debian/Ubuntu: apt-get install kcat; elsewhere: https://github.com/edenhill/kcat) and rerun',
  );

/**
 * The browser tests drive the system's Chromium (Playwright's own browser download is not reachable
 * from every machine): Debian's package, at /usr/bin/chromium unless PLAYWRIGHT_CHROMIUM says otherwise.
 */
export const ensureChromium = () =>
  ensureDebianPackage('chromium', 'chromium', 'install Chromium (Debian/Ubuntu: apt-get install chromium) and rerun');

/** True when this checkout's scripts/kafka.mjs runs the broker (so a test may stop and restart it). */
export function managesLocalBroker() {
  return (
    !process.env.KAFKA_BROKERS &&
    spawnSync('node', ['scripts/kafka.mjs', 'status'], { cwd: root, encoding: 'utf8' }).stdout.includes('process ')
  );
}

export const cli = (args, env = process.env) =>
  run('node', [...appNodeFlags('cli'), 'dist/apps/cli/src/main.js', ...args], {
    env: appEnv(env),
    what: `agentwatch ${args[0]}`,
  });
