import fs from 'node:fs';
import { databaseConfigFromEnv } from '@agentwatch/db';
import {
  AppProcess,
  createOrganization,
  eventCounts,
  eventStream,
  eventually,
  spawnApp,
  suiteEnv,
} from '@agentwatch/testing';
import { Client } from 'pg';

const SLOW_BATCH_MS = 1500;

/** Local ports of a process's TCP sockets (Linux): its Postgres connections' client ports among them. */
function localPortsOf(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && inodes.has(columns[9])) ports.push(Number.parseInt(columns[1].split(':')[1], 16));
    }
  }
  return ports;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('projector: graceful shutdown under load', () => {
  const env = suiteEnv('shutdown', { PROJECTOR_PORT: '0', LOG_LEVEL: 'log', KAFKA_SESSION_TIMEOUT_MS: '6000' });
  let db: Client;
  let orgId: string;

  const counts = () => eventCounts(db, orgId);

  /**
   * This projector's transactions open right now: a batch held at the delay point, rows written, not
   * committed. Only its own connections count: other suites run projectors against the same database
   * at the same time, and one of theirs being open says nothing about this one.
   */
  const openBatches = async (projector: AppProcess) => {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND usename = 'agentwatch_projector' AND state = 'idle in transaction'
          AND client_port = ANY($1)`,
      [localPortsOf(projector.child.pid as number)],
    );
    return rows[0].n as number;
  };

  beforeAll(async () => {
    db = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    await db.connect();
    orgId = (await createOrganization('shutdown org', env)).orgId;
  });

  afterAll(() => db?.end());

  it('on SIGTERM commits the batches in flight, ends cleanly, and a restart finishes the stream exactly once', async () => {
    // A steady stream (about 2,500 events/s) for as long as the test runs, so that there is always a
    // batch to be in flight.
    const stream = await eventStream(env);
    let produced = 0;
    let streaming = true;
    const producing = (async () => {
      while (streaming) {
        await stream.produce(orgId, 250);
        produced += 250;
        await pause(100);
      }
    })();
    let projector: AppProcess | undefined;
    try {
      for (let stop = 0; stop < 3; stop++) {
        // Every batch stays open SLOW_BATCH_MS inside its transaction; the signal goes out while one is.
        projector = spawnApp('projector', {
          ...env,
          AGENTWATCH_DELAYPOINT: `projector.in-transaction:${SLOW_BATCH_MS}`,
        });
        const before = (await counts()).total;
        await eventually(counts, (c) => c.total > before, { timeoutMs: 60_000, intervalMs: 50, what: 'progress' });
        // Counted before the batch is seen open, so its rows are not in the count: read after it was
        // seen, the count could already include that batch if it committed in between, and the
        // projector, caught up, might have had nothing else in flight at the signal.
        const atSignal = (await counts()).total;
        const running = projector;
        await eventually(
          () => openBatches(running),
          (n) => n > 0,
          { timeoutMs: 30_000, intervalMs: 20, what: 'a batch in flight' },
        );
        const exit = await projector.kill('SIGTERM');
        const output = projector.output();
        // Nest's shutdown hook closes the app, then re-raises the signal: ending by SIGTERM after the
        // log lines below is the clean outcome (a crash would end with exit code 1).
        expect({ exit, output }).toEqual({ exit: 'SIGTERM', output: expect.stringContaining('batch(es) in flight') });
        expect(output).toContain('stopping: batches finished');
        expect(output).not.toMatch(/ERROR|Restarting the consumer|Driver not Connected/);
        // The batches in flight at the signal were committed before the process ended.
        expect((await counts()).total).toBeGreaterThan(atSignal);
      }
      streaming = false;
      await producing;
      projector = spawnApp('projector', env);
      await eventually(counts, (c) => c.total >= produced, {
        timeoutMs: 120_000,
        what: `${produced} events projected`,
      });
      await pause(1000); // a wrongly re-applied batch would show up now
      expect(await counts()).toEqual({ total: produced, distinct: produced });
    } finally {
      streaming = false;
      await producing;
      await stream.close();
      await projector?.kill('SIGTERM');
    }
  }, 300_000);
});
