import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** The CLI's node processes below `pid` (npm runs the script through a shell), from /proc's parent links. */
function nodeDescendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the table was read.
    }
  }
  const below = (p: number): number[] =>
    [...parentOf].filter(([, parent]) => parent === p).flatMap(([child]) => [child, ...below(child)]);
  return below(pid).filter((p) => {
    try {
      const [program, ...args] = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      return path.basename(program) === 'node' && args.includes('dist/apps/cli/src/main.js');
    } catch {
      return false;
    }
  });
}

const environmentOf = (pid: number) =>
  Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

// `npm run cli` (replay among its commands) runs the CLI with the apps' allocator settings
// (scripts/lib.mjs, docs/adr/0019-allocator-thresholds.md), and a value the caller set wins.
describe('npm run cli: glibc allocator settings', () => {
  it('runs the CLI with the heap thresholds, keeping a caller’s own value', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_TRIM_THRESHOLD_: '33554432' };
    delete env.MALLOC_MMAP_THRESHOLD_;
    const npm = spawn('npm', ['run', '--silent', 'cli', '--', 'simulate', '--print', '--events', '100000000'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        npm.stdout.once('data', () => resolve());
        npm.once('exit', (code) => reject(new Error(`npm run cli ended (${code}) before printing`)));
      });
      const [cli] = nodeDescendantsOf(npm.pid!);
      expect(cli).toBeDefined();
      expect(environmentOf(cli)).toMatchObject({
        MALLOC_MMAP_THRESHOLD_: String(16 * 2 ** 20),
        MALLOC_TRIM_THRESHOLD_: '33554432',
      });
    } finally {
      for (const pid of nodeDescendantsOf(npm.pid!)) process.kill(pid, 'SIGKILL');
      npm.kill('SIGKILL');
    }
  });
});
