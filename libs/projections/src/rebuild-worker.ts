import { fork } from 'node:child_process';
import path from 'node:path';
import { failpoint, ProjectionDefinition } from '@agentwatch/kafka';
import { ProjectionStoreSettings } from './projector.module';
import { RebuildConsumers, startRebuildConsumers } from './rebuild-consumers';
import { selectProjections } from './select-projections';

/** What the rebuilding process tells a worker; by IPC, never on its command line (it holds passwords). */
interface WorkerOrders {
  config: ProjectionStoreSettings;
  run: string;
  projections: string[];
}

type WorkerReport = { ready: true } | { failed: string } | { stopped: number };

const STOP = 'stop';
/** How long a worker may take to let its batches in flight commit and leave the group. */
const STOP_GRACE_MS = 30_000;

/**
 * A second process consuming for a rebuild: a rebuild's consumers are bound by one Node thread's
 * CPU (Postgres has cores to spare), and every process joining the run's consumer groups takes a
 * share of the partitions. It fails the rebuild if it exits before it is told to stop.
 */
export function forkRebuildWorker(
  config: ProjectionStoreSettings,
  run: string,
  projections: ProjectionDefinition[],
): Promise<RebuildConsumers> {
  // The parent's V8 flags (its heap cap) hold for the worker too.
  const child = fork(path.join(__dirname, 'rebuild-worker.js'), [], { execArgv: process.execArgv });
  let stopping = false;
  let failure: Error | null = null;
  // Ended: exited, and its channel closed, so every report it sent has been read ('exit' alone can
  // come before the last message).
  const ended = Promise.all([
    new Promise((resolve) => child.once('exit', resolve)),
    new Promise((resolve) => child.once('disconnect', resolve)),
  ]);
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      if (stopping) return;
      failure = new Error(`a rebuild worker exited (${signal ?? `code ${code}`}) before it was stopped`);
      reject(failure);
    });
    let applied = 0;
    child.on('message', (report: WorkerReport) => {
      if ('failed' in report) return reject(new Error(`a rebuild worker failed: ${report.failed}`));
      if ('stopped' in report) {
        applied = report.stopped;
        return;
      }
      resolve({
        failure: () => failure,
        close: async () => {
          stopping = true;
          if (child.connected) {
            child.send(STOP);
            const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
            await ended;
            clearTimeout(timer);
          }
          return applied;
        },
      });
    });
    child.send({ config, run, projections: projections.map((p) => p.name) } satisfies WorkerOrders);
  });
}

/** The worker's side: starts the consumers it is told to, reports ready, closes them when told to stop. */
function serve(): void {
  // Sent before the process exits with `code`, if it is to exit.
  const report = (message: WorkerReport, code?: number) =>
    process.send?.(message, () => {
      if (code !== undefined) process.exit(code);
    });
  // An orphaned worker (its rebuild process died) stops: nobody would ever tell it to.
  process.once('disconnect', () => process.exit(1));
  process.once('message', async (orders: WorkerOrders) => {
    let consumers: RebuildConsumers;
    try {
      consumers = await startRebuildConsumers(orders.config, orders.run, selectProjections(orders.projections));
    } catch (error) {
      report({ failed: (error as Error).message }, 1);
      return;
    }
    process.once('message', async (message) => {
      if (message !== STOP) return;
      report({ stopped: await consumers.close() }, 0);
    });
    failpoint('rebuild-worker.consuming');
    report({ ready: true });
  });
}

if (require.main === module) serve();
