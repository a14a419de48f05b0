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

// Scale tests: their budgets are generous on purpose (a loaded 2-core CI machine); speed is the bench's job.
const TEN_KILLS_BUDGET_MS = 600_000;
const REBALANCE_BUDGET_MS = 300_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomBetween = (min: number, max: number) => min + Math.random() * (max - min);

describe('projector under faults: every event exactly once', () => {
  // A short session timeout lets a killed member's partitions move on quickly.
  const env = suiteEnv('faults', { PROJECTOR_PORT: '0', LOG_LEVEL: 'error', KAFKA_SESSION_TIMEOUT_MS: '6000' });
  let db: Client;

  const counts = (orgId: string) => eventCounts(db, orgId);

  beforeAll(async () => {
    db = new Client({ connectionString: databaseConfigFromEnv(env).adminUrl });
    await db.connect();
  });

  afterAll(() => db?.end());

  it(
    'survives ten SIGKILLs at random moments while 100,000 events stream in',
    async () => {
      const EVENTS = 100_000;
      const { orgId } = await createOrganization('crash-at-scale', env);
      const stream = await eventStream(env);
      // About 1,100 events/s for a minute and a half, so that the kills land while the stream is still
      // flowing: ten kill cycles take a minute or more, and a faster projector once caught up with a
      // one-minute stream before the tenth kill.
      const producing = stream.produce(orgId, EVENTS, 1000, 900);
      let projector: AppProcess = spawnApp('projector', env);
      const kills: number[] = [];
      try {
        for (let kill = 0; kill < 10; kill++) {
          // Kill only once this incarnation has applied something, at a random moment after that.
          const before = (await counts(orgId)).total;
          await eventually(
            () => counts(orgId),
            (c) => c.total > before,
            { timeoutMs: 60_000, intervalMs: 100, what: 'progress' },
          );
          await pause(randomBetween(0, 1000));
          await projector.kill('SIGKILL');
          kills.push((await counts(orgId)).total);
          projector = spawnApp('projector', env);
        }
        await producing;
        const final = await eventually(
          () => counts(orgId),
          (c) => c.total >= EVENTS,
          { timeoutMs: 240_000, intervalMs: 1000, what: `${EVENTS} events projected` },
        );
        await pause(2000); // a wrongly re-applied batch would show up now
        expect(await counts(orgId)).toEqual({ total: EVENTS, distinct: EVENTS });
        expect(final.total).toBe(EVENTS);
        // Every kill landed while the projection was under way, after progress and before the end.
        expect(kills).toHaveLength(10);
        expect(kills.every((n) => n > 0 && n < EVENTS)).toBe(true);
      } finally {
        await projector.kill('SIGTERM');
        await stream.close();
      }
    },
    TEN_KILLS_BUDGET_MS,
  );

  it(
    'loses and duplicates nothing when one of two group members is killed and restarted under load',
    async () => {
      const EVENTS = 30_000;
      const { orgId } = await createOrganization('rebalance', env);
      const stream = await eventStream(env);
      const members = [spawnApp('projector', env), spawnApp('projector', env)];
      try {
        // About 5,000 events/s for 6 s; the kill lands once the group projects, while the stream flows.
        const producing = stream.produce(orgId, EVENTS, 500, 100);
        await eventually(
          () => counts(orgId),
          (c) => c.total > 0,
          { timeoutMs: 60_000, intervalMs: 100, what: 'progress' },
        );
        await members[0].kill('SIGKILL');
        const during = await counts(orgId);
        await pause(1000);
        members[0] = spawnApp('projector', env);
        await producing;
        await eventually(
          () => counts(orgId),
          (c) => c.total >= EVENTS,
          { timeoutMs: 180_000, intervalMs: 1000, what: `${EVENTS} events projected` },
        );
        await pause(2000);
        expect(await counts(orgId)).toEqual({ total: EVENTS, distinct: EVENTS });
        expect(during.total).toBeLessThan(EVENTS);
      } finally {
        await Promise.all(members.map((member) => member.kill('SIGTERM')));
        await stream.close();
      }
    },
    REBALANCE_BUDGET_MS,
  );
});
