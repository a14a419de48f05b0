import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

export interface ControlPlaneProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
  kill(signal?: NodeJS.Signals): Promise<NodeJS.Signals | number | null>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built control plane (`npm run build` output) as its own OS process, answering on a free port. */
export async function spawnControlPlane(env: NodeJS.ProcessEnv): Promise<ControlPlaneProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'dist', 'apps', 'control-plane', 'src', 'main.js')], {
    env: { ...env, CONTROL_PLANE_PORT: String(port), HOST: '127.0.0.1' },
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
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`control plane exited: ${output}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`control plane did not answer within 60 s: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    output: () => output,
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
