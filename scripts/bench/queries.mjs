// Query latency: one request at a time, each from a random organization's daemon, so the figures are
// service times rather than queueing behind our own load.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { appEnv, appNodeFlags, root } from '../lib.mjs';
import { peakRssMb } from './stack.mjs';

async function timed(url, token) {
  const start = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.text();
  return { ms: performance.now() - start, status: response.status };
}

/**
 * Each kind's latency over its answers with 200; any other answer is counted by status, with the
 * first few URLs, instead of ending a run of an hour: a session of the fleet's that the API does not
 * find is a finding for the table, not a reason to lose the rest of it.
 */
export async function queryLatencies({ apiUrl, tokens, fleet, count, random, summarize }) {
  const kinds = {
    'GET /v1/events (filtered page)': () => `${apiUrl}/v1/events?action_type=FILE_READ&limit=50`,
    'GET /v1/sessions/{id}': (daemon) => {
      const sessions = fleet.sessionsOf(daemon);
      return `${apiUrl}/v1/sessions/${sessions[random.int(0, sessions.length - 1)]}`;
    },
    'GET /v1/events/stats': () => `${apiUrl}/v1/events/stats`,
  };
  const out = {};
  for (const [name, urlOf] of Object.entries(kinds)) {
    const samples = [];
    const refused = { count: 0, statuses: {}, examples: [] };
    for (let i = 0; i < count; i++) {
      const daemon = random.int(0, tokens.length - 1);
      const url = urlOf(daemon);
      const { ms, status } = await timed(url, tokens[daemon]);
      if (status === 200) {
        samples.push(ms);
        continue;
      }
      refused.count++;
      refused.statuses[status] = (refused.statuses[status] ?? 0) + 1;
      if (refused.examples.length < 5) refused.examples.push(`${status} ${url.slice(apiUrl.length)}`);
    }
    out[name] = { ...summarize(samples), ...(refused.count > 0 ? { refused } : {}) };
  }
  return out;
}

/** The processes a process started (its worker processes), from /proc. */
function childrenOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * `agentwatch replay --projection all` with the flags and allocator settings `npm run cli` gives it;
 * it prints "… N records in Xs (R records/s, W processes) …", and its output goes to `logFile`. The
 * peak RSS of its largest process (it forks workers) is sampled while it runs: /proc forgets a
 * process that exited.
 */
export function replayAll(env, logFile) {
  return new Promise((resolve, reject) => {
    const args = [...appNodeFlags('cli'), 'dist/apps/cli/src/main.js', 'replay', '--projection', 'all'];
    const child = spawn(process.execPath, args, { cwd: root, env: appEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let peakRss = null;
    const sampler = setInterval(() => {
      for (const pid of [child.pid, ...childrenOf(child.pid)]) peakRss = Math.max(peakRss ?? 0, peakRssMb(pid) ?? 0);
    }, 200);
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    child.on('close', (code) => {
      clearInterval(sampler);
      if (logFile) fs.writeFileSync(logFile, out);
      const m = /(\d+) records in ([\d.]+)s \((\d+) records\/s, (\d+) process/.exec(out);
      if (code !== 0 || !m) reject(new Error(`replay exited ${code}:\n${out.slice(-2000)}`));
      else
        resolve({
          records: Number(m[1]),
          seconds: Number(m[2]),
          rate: Number(m[3]),
          processes: Number(m[4]),
          peakRssMb: peakRss,
        });
    });
  });
}
