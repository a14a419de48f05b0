import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

export interface AppProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the signal or exit code the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  kill(signal?: NodeJS.Signals): Promise<NodeJS.Signals | number | null>;
}

/** Runs a built app (`npm run build` output) as its own OS process, as production does. */
export function spawnApp(app: 'cloud-api' | 'projector', env: NodeJS.ProcessEnv): AppProcess {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'apps', app, 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // 'close', not 'exit': 'exit' can come before the last lines written to the pipes are read, and a
  // test that reads the output once the process ended would miss them.
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('close', (code, signal) => resolve(signal ?? code)),
  );
  return {
    child,
    output: () => output,
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
