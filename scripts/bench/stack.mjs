// The bench's own stack: a database and topic prefix of its own, each app a separate process on a
// free port, and the clean-up that removes all of it again.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { appEnv, appNodeFlags, root } from '../lib.mjs';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitReady(url, app, child) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}; see its log`);
    try {
      if ((await fetch(`${url}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(300);
  }
  throw new Error(`${app} was not ready on ${url}/ready within 90 s`);
}

const PORT_VARIABLE = {
  'cloud-api': 'CLOUD_API_PORT',
  projector: 'PROJECTOR_PORT',
  'scoring-worker': 'SCORING_WORKER_PORT',
};

/**
 * Starts one app as `node dist/apps/<app>/src/main.js` (with --cpu-prof when asked) and waits for
 * /ready. `nodeFlags` replaces the flags `npm start` gives it; `cwd` runs another checkout's build,
 * `node` another node binary.
 */
export async function startApp(
  app,
  env,
  { cpuProf, logDir, stamp, nodeFlags = appNodeFlags(app), cwd = root, node = process.execPath },
) {
  const port = await freePort();
  const flags = cpuProf
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.join(root, 'bench', 'profiles')}`,
        `--cpu-prof-name=${stamp}-${app}.cpuprofile`,
      ]
    : [];
  const log = fs.openSync(path.join(logDir, `${app}.log`), 'w');
  const child = spawn(node, [...nodeFlags, ...flags, `dist/apps/${app}/src/main.js`], {
    cwd,
    env: { ...appEnv(env), [PORT_VARIABLE[app]]: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, app, child);
  return { app, url, child, startedAt: performance.now() };
}

/** Peak resident set of a live process (VmHWM), in MB. */
export function peakRssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    // A process that is exiting (a zombie) has no VmHWM line any more: no figure, rather than NaN.
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** The fields of /proc/<pid>/stat after the parenthesised command name (utime is [11]); null once it is gone. */
function statFields(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU time (user + system) a live process has used so far, in seconds; null once it is gone. */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return fields && (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * A process's CPU seconds, the part of them spent in the kernel, and its minor page faults so far,
 * read at one instant; on this virtual machine a page fault on fresh memory costs microseconds.
 */
export function processCounters(pid) {
  const fields = statFields(pid);
  if (!fields) return { cpu: null, systemCpu: null, minorFaults: null };
  return {
    cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND,
    systemCpu: Number(fields[12]) / CLOCK_TICKS_PER_SECOND,
    minorFaults: Number(fields[7]),
  };
}

/**
 * CPU seconds used so far by the machine's Postgres server and Kafka broker, found by process name:
 * every `postgres` process, plus what the postmaster's exited children (closed connections) used, and
 * every `java` process running `kafka.Kafka`. Whatever else uses them at the time counts too.
 */
export function serverCpuSeconds() {
  const totals = { postgres: 0, broker: 0 };
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres' && name !== 'java') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, and the reaped children's cutime, cstime.
      const [own, reaped] = [Number(fields[11]) + Number(fields[12]), Number(fields[13]) + Number(fields[14])];
      if (name === 'postgres') totals.postgres += (own + reaped) / CLOCK_TICKS_PER_SECOND;
      else if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka')) {
        totals.broker += own / CLOCK_TICKS_PER_SECOND;
      }
    } catch {
      // gone meanwhile
    }
  }
  return totals;
}

/**
 * The machine's CPU time so far from /proc/stat, in seconds summed over its cores: all of it, and
 * the part the hypervisor gave to other guests (steal): on a shared virtual machine, a phase whose
 * cores were stolen from had less than the machine's cores.
 */
export function machineCpuSeconds() {
  const [, ...ticks] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is inside user already)
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total: total / CLOCK_TICKS_PER_SECOND, stolen: ticks[7] / CLOCK_TICKS_PER_SECOND };
}

/** The share of the machine's CPU time stolen between two machineCpuSeconds() readings. */
export const stolenShare = (from, to) =>
  to.total > from.total ? (to.stolen - from.stolen) / (to.total - from.total) : null;

/** SIGTERM (Nest's shutdown hooks close cleanly, so --cpu-prof writes its profile), SIGKILL after 10 s. */
export async function stopApp({ child }) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
