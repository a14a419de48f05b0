import { fork } from 'node:child_process';
import path from 'node:path';
import { failpoint, ProjectionDefinition } from '@agentwatch/kafka';
import { ProjectionStoreSettings } from './projector.module';
import { bootRebuildConsumers, RebuildConsumers } from './rebuild-consumers';
import { selectProjections } from './select-projections';

/** What the rebuilding process tells a worker; by IPC, never on its command line (it holds passwords). */
interface WorkerOrders {
  config: ProjectionStoreSettings;
  run: string;
  projections: string[];
}

type WorkerReport = { booted: true } | { consuming: true } | { failed: string } | { stopped: number };

const CONSUME = 'consume';
const STOP = 'stop';
/** How long a worker may take to let its batches in flight commit and leave the group. */
const STOP_GRACE_MS = 30_000;

/**
 * A second process consuming for a rebuild: a rebuild's consumers are bound by one Node thread's
 * CPU (Postgres has cores to spare), and every process joining the run's consumer groups takes a
 * share of the partitions. Resolves once the worker has booted its consumers; they consume once
 * started. It fails the rebuild if it exits before it is told to stop.
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
  let starting: { resolve: () => void; reject: (error: Error) => void } | null = null;
  // Ended: exited, and its channel closed, so every report it sent has been read ('exit' alone can
  // come before the last message).
  const ended = Promise.all([
    new Promise((resolve) => child.once('exit', resolve)),
    new Promise((resolve) => child.once('disconnect', resolve)),
  ]);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      failure = error;
      reject(error);
      starting?.reject(error);
    };
    child.once('exit', (code, signal) => {
      if (!stopping) fail(new Error(`a rebuild worker exited (${signal ?? `code ${code}`}) before it was stopped`));
    });
    let applied = 0;
    child.on('message', (report: WorkerReport) => {
      if ('failed' in report) return fail(new Error(`a rebuild worker failed: ${report.failed}`));
      if ('stopped' in report) {
        applied = report.stopped;
        return;
      }
      if ('consuming' in report) return starting?.resolve();
      resolve({
        failure: () => failure,
        start: () =>
          new Promise((started, refused) => {
            if (failure) return refused(failure);
            starting = { resolve: started, reject: refused };
            child.send(CONSUME);
          }),
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

/**
 * The worker's side: boots the consumers it is told to and reports it, starts them when told to,
 * closes them when told to stop (booted or consuming).
 */
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
      consumers = await bootRebuildConsumers(orders.config, orders.run, selectProjections(orders.projections));
    } catch (error) {
      report({ failed: (error as Error).message }, 1);
      return;
    }
    process.on('message', async (message) => {
      if (message === CONSUME) {
        try {
          await consumers.start();
        } catch (error) {
          report({ failed: (error as Error).message }, 1);
          return;
        }
        failpoint('rebuild-worker.consuming');
        report({ consuming: true });
      } else if (message === STOP) {
        report({ stopped: await consumers.close() }, 0);
      }
    });
    failpoint('rebuild-worker.booted');
    report({ booted: true });
  });
}

if (require.main === module) serve();
