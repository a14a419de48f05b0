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
import { Client, Pool } from 'pg';

// Runs alone (npm test's "faults" phase): it cuts every connection to this run's database, which
// would break whatever else ran beside it.
const EVENTS = 20_000;
const OUTAGE_MS = 10_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Postgres outages while the projector works', () => {
  const env = suiteEnv('faults-pg', { PROJECTOR_PORT: '0', LOG_LEVEL: 'warn', KAFKA_SESSION_TIMEOUT_MS: '6000' });
  const adminUrl = new URL(databaseConfigFromEnv(env).adminUrl);
  const database = adminUrl.pathname.slice(1);
  // Outages are caused from another database: a session cannot lock its own database out.
  let control: Client;
  // Counting goes through a pool, which replaces the sessions the outages cut.
  let readers: Pool;
  let orgId: string;

  const counts = () => eventCounts(readers, orgId);

  /**
   * What a Postgres restart looks like to its clients: every session of the database is cut, and
   * new connections are refused for a while. Only this test's own session survives.
   */
  async function outage(ms: number): Promise<number> {
    await control.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    const { rows } = await control.query(
      'SELECT count(pg_terminate_backend(pid))::int AS cut FROM pg_stat_activity WHERE datname = $1',
      [database],
    );
    await pause(ms);
    await control.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    return rows[0].cut;
  }

  beforeAll(async () => {
    const elsewhere = new URL(adminUrl);
    elsewhere.pathname = '/postgres';
    control = new Client({ connectionString: elsewhere.href });
    await control.connect();
    readers = new Pool({ connectionString: adminUrl.href, max: 2 });
    readers.on('error', () => {}); // an idle reader cut by an outage; the pool replaces it
    orgId = (await createOrganization('postgres outage org', env)).orgId;
  });

  afterAll(async () => {
    await control?.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    await control?.end();
    await readers?.end();
  });

  it('recovers by itself after each outage and projects every event exactly once', async () => {
    const stream = await eventStream(env);
    // About 800 events/s for 25 s: all three outages (10 s, then 1 s twice) land while the stream
    // still flows. A stream that ended during the first one left the projector nothing to make
    // progress on before the third once it had caught up, and the test waited for progress forever.
    const producing = stream.produce(orgId, EVENTS, 200, 250);
    const projector: AppProcess = spawnApp('projector', env);
    try {
      const cuts: number[] = [];
      for (let round = 0; round < 3; round++) {
        const before = (await counts()).total;
        await eventually(counts, (c) => c.total > before, {
          timeoutMs: 90_000,
          what: `progress before outage ${round + 1}`,
        });
        cuts.push(await outage(round === 0 ? OUTAGE_MS : 1000));
      }
      await producing;
      // Every outage cut live projector sessions, so there was something to recover from.
      expect(cuts.every((cut) => cut > 0)).toBe(true);
      await eventually(counts, (c) => c.total >= EVENTS, {
        timeoutMs: 180_000,
        intervalMs: 500,
        what: 'all events projected',
      });
      await pause(1000); // a wrongly re-applied batch would show up now
      expect(await counts()).toEqual({ total: EVENTS, distinct: EVENTS });
      const log = projector.output();
      const occurrences = (text: string) => log.split(text).length - 1;
      console.log(
        `postgres outages: sessions cut ${cuts.join(', ')}; consumers restarted by kafkajs ` +
          `${occurrences('Restarting the consumer')}, replaced by the runner ${occurrences('replacing it in')}`,
      );
      // No human action: the same process did all of it.
      expect(projector.child.exitCode).toBeNull();
      expect(projector.child.signalCode).toBeNull();
    } catch (error) {
      throw new Error(`${(error as Error).message}\nprojector output (tail):\n${projector.output().slice(-6000)}`);
    } finally {
      await projector.kill('SIGTERM');
      await producing.catch(() => {}); // its failure, if any, failed the test above
      await stream.close();
    }
  }, 420_000);
});
