import { percentile } from '@agentwatch/bench';
import { call, createOrganization, fuzzBudget, RunningStack, startStack, TestOrganization } from '@agentwatch/testing';
import fc from 'fast-check';
import { v4 as uuidv4 } from 'uuid';
import { IngestRequest, pathologicalRequest } from '../fuzz/ingest-arbitraries';

const RATE_LIMIT_RPS = 20;
// Alone and beside A alternate in rounds, so drift on the machine (a checkpoint, autovacuum) lands on
// both sides; 200 batches a side make the nearest-rank p99 the third-slowest, not one stray pause.
const ROUNDS = 4;
const B_BATCHES = 50;
const B_INTERVAL_MS = 100;
const POLL_MS = 10;
const GIVE_UP_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one tenant cannot slow another', () => {
  let stack: RunningStack;
  let a: TestOrganization;
  let b: TestOrganization;

  beforeAll(async () => {
    stack = await startStack('fuzz-isolation', {
      INGEST_RATE_LIMIT_RPS: String(RATE_LIMIT_RPS),
      INGEST_RATE_LIMIT_BURST: String(RATE_LIMIT_RPS),
    });
    [a, b] = await Promise.all([createOrganization('tenant A', stack.env), createOrganization('tenant B', stack.env)]);
  });

  afterAll(() => stack?.stop());

  /** B's ordinary batches, one every B_INTERVAL_MS: for each, ack → queryable of its last event, in ms. */
  async function streamOrdinary(tag: string): Promise<{ latencies: number[]; eventIds: string[] }> {
    const eventIds: string[] = [];
    const measurements: Promise<number>[] = [];
    for (let i = 0; i < B_BATCHES; i++) {
      const session = uuidv4();
      const events = Array.from({ length: 10 }, (_, n) => ({
        event_id: `${tag}-${i}-${n}`,
        action_type: 'FILE_READ',
        timestamp: new Date().toISOString(),
        tool_name: 'cat',
        arguments: [`/tmp/${i}/${n}`],
        session_id: session,
      }));
      const answer = await call<{ ingested: number }>(`${stack.apiUrl}/v1/events/ingest`, {
        method: 'POST',
        token: b.token,
        body: { events },
      });
      expect(answer.status).toBe(200);
      const acked = performance.now();
      const page = `${stack.apiUrl}/v1/events?session_id=${session}&limit=1000`;
      measurements.push(
        (async () => {
          // Bounded, so a stalled partition fails the test with numbers instead of timing it out.
          while (performance.now() - acked < GIVE_UP_MS) {
            const seen = await call<{ events: { id: string }[] }>(page, { token: b.token });
            if (seen.status === 200 && seen.body.events.length === events.length) {
              eventIds.push(...seen.body.events.map((e) => e.id));
              return performance.now() - acked;
            }
            await sleep(POLL_MS);
          }
          return Number.POSITIVE_INFINITY;
        })(),
      );
      await sleep(B_INTERVAL_MS);
    }
    return { latencies: await Promise.all(measurements), eventIds };
  }

  /** A's hostile batches at exactly its rate limit, until told to stop; returns the statuses it got. */
  function streamPathological(stop: { now: boolean }): Promise<Map<number, number>> {
    const requests = fc.sample(pathologicalRequest, { seed: fuzzBudget().seed, numRuns: 2000 }) as IngestRequest[];
    const statuses = new Map<number, number>();
    return (async () => {
      for (let i = 0; !stop.now; i++) {
        const { route, body } = requests[i % requests.length];
        const answer = await call(`${stack.apiUrl}${route}`, { method: 'POST', token: a.token, body });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        await sleep(1000 / RATE_LIMIT_RPS);
      }
      return statuses;
    })();
  }

  it("keeps B's ack → queryable p99 within 2× of its baseline while A streams pathological batches", async () => {
    const baseline = { latencies: [] as number[], eventIds: [] as string[] };
    const loaded = { latencies: [] as number[], eventIds: [] as string[] };
    const statuses = new Map<number, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await streamOrdinary(`alone-${round}`);
      const stop = { now: false };
      const hostile = streamPathological(stop);
      const beside = await streamOrdinary(`beside-a-${round}`);
      stop.now = true;
      for (const [status, count] of await hostile) statuses.set(status, (statuses.get(status) ?? 0) + count);
      baseline.latencies.push(...alone.latencies);
      baseline.eventIds.push(...alone.eventIds);
      loaded.latencies.push(...beside.latencies);
      loaded.eventIds.push(...beside.eventIds);
    }

    const p = (values: number[], q: number) => Math.round(percentile(values, q) ?? Number.NaN);
    console.log(
      `B alone: ack → queryable p50/p99 ${p(baseline.latencies, 50)}/${p(baseline.latencies, 99)} ms; ` +
        `beside A: ${p(loaded.latencies, 50)}/${p(loaded.latencies, 99)} ms; A's answers: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // A really was accepted in part and refused in part, and never answered 5xx.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    // B lost nothing: every event once.
    expect(new Set([...baseline.eventIds, ...loaded.eventIds]).size).toBe(2 * ROUNDS * B_BATCHES * 10);
    // Polling every POLL_MS puts a floor under what can be told apart.
    const floor = 5 * POLL_MS;
    expect(p(loaded.latencies, 99)).toBeLessThanOrEqual(2 * Math.max(p(baseline.latencies, 99), floor));
  });
});
