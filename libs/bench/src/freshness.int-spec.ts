import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Fleet } from './domain/fleet';
import { apiMarkerProbe } from './freshness';
import { measureFreshness, prepareFreshness } from './freshness-phase';

// Known, injected delays: the k-th marker the server accepts becomes queryable 100 + 40k ms and
// scored 400 + 40k ms after its acceptance, so the expected percentiles are exact. Ranks lie 40 ms
// apart, wider than the early tolerance below, so a percentile taken one rank too low still fails.
const queryableDelay = (k: number) => 100 + 40 * k;
const scoredDelay = (k: number) => 400 + 40 * k;
const MARKERS = 20;

function delayedReadModel(
  visibleAfter: (k: number) => number = queryableDelay,
  scoredAfter: (k: number) => number = scoredDelay,
): Promise<{ server: Server; url: string }> {
  const accepted = new Map<string, { at: number; k: number }>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/v1/ingest') {
        const { events } = JSON.parse(body) as { events: { agent_id?: string; session_id: string }[] };
        // Acceptance is stamped when the 200 has been handed to the socket, the closest the server can
        // see to the moment the client reads its ack.
        const markers = events.filter((e) => e.agent_id === 'bench-marker');
        const stamp = markers.map((e) => ({ session: e.session_id, k: accepted.size + markers.indexOf(e) }));
        for (const { session, k } of stamp) accepted.set(session, { at: Number.POSITIVE_INFINITY, k });
        res.on('finish', () => {
          for (const { session, k } of stamp) accepted.set(session, { at: performance.now(), k });
        });
        res.end(JSON.stringify({ ingested: events.length }));
        return;
      }
      const session = /^\/v1\/sessions\/([^/]+)\/events/.exec(req.url ?? '')?.[1] ?? '';
      const marker = accepted.get(session);
      const age = marker ? performance.now() - marker.at : -1;
      const visible = marker !== undefined && age >= visibleAfter(marker.k);
      const scored = marker !== undefined && age >= scoredAfter(marker.k);
      res.end(JSON.stringify({ events: visible ? [{ risk_score: scored ? 15 : null }] : [] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

describe('the bench freshness measurement', () => {
  let stack: { server: Server; url: string };
  beforeAll(async () => {
    stack = await delayedReadModel();
  });
  afterAll(() => new Promise((resolve) => stack.server.close(resolve)));

  it('measures ack → queryable and ack → scored percentiles of a known delay, within one poll interval and 5 %', async () => {
    const fleet = new Fleet({
      daemons: 2,
      batch: 10,
      events: MARKERS * 10,
      seed: 9,
      organizations: 1,
      eventIds: false,
      startMs: 0,
    });
    const pollMs = 10;
    const relativePrecision = 0.05;
    const { sent, freshness, unsent } = await measureFreshness(
      prepareFreshness(fleet.batches(), { markerEvery: 1, seed: 1 }),
      { apiUrl: stack.url, tokens: ['a', 'b'], concurrency: 1 },
      {
        probe: apiMarkerProbe(stack.url, ['a', 'b']),
        tracking: { pollMs, relativePrecision, timeoutMs: 10_000, scored: true },
      },
    );
    expect(sent.failed).toBe(0);
    expect(unsent).toEqual([]);
    expect(freshness.timedOut).toBe(0);
    expect(freshness.queryable.count).toBe(MARKERS);
    // Nearest rank over 20 samples: p50 is the 10th, p95 the 19th, p99 the 20th (k = 9, 18, 19).
    const expected = {
      queryable: { p50: queryableDelay(9), p95: queryableDelay(18), p99: queryableDelay(19) },
      scored: { p50: scoredDelay(9), p95: scoredDelay(18), p99: scoredDelay(19) },
    };
    for (const figure of ['queryable', 'scored'] as const) {
      for (const p of ['p50', 'p95', 'p99'] as const) {
        const measured = freshness[figure][p] as number;
        // Early by at most the lag between the server flushing the 200 and the client handling it
        // (they share one event loop here, 25 ms seen on a loaded CI machine); late by at most a poll,
        // the relative precision and a probe round trip, with room for a loaded machine.
        expect(measured).toBeGreaterThanOrEqual(expected[figure][p] - 35);
        expect(measured).toBeLessThanOrEqual(expected[figure][p] * (1 + relativePrecision) + pollMs + 150);
      }
    }
    // The timeline lists the markers in ack order (concurrency 1: the k-th marker is the k-th ack),
    // each with its own figures, so it shows the delays growing as the server made them grow.
    expect(freshness.timeline).toHaveLength(MARKERS);
    freshness.timeline.forEach((marker, k) => {
      if (k > 0) expect(marker.ackedAtS).toBeGreaterThanOrEqual(freshness.timeline[k - 1].ackedAtS);
      expect(marker.queryableMs).toBeGreaterThanOrEqual(queryableDelay(k) - 35);
      expect(marker.queryableMs).toBeLessThanOrEqual(queryableDelay(k) * (1 + relativePrecision) + pollMs + 150);
      expect(marker.scoredMs).toBeGreaterThanOrEqual(scoredDelay(k) - 35);
      expect(marker.scoredMs).toBeLessThanOrEqual(scoredDelay(k) * (1 + relativePrecision) + pollMs + 150);
    });
    expect(freshness.timeline[0].ackedAtS).toBe(0);
  });

  it('probes a marker that takes long less and less often, so the probes do not load the API under test', async () => {
    const slow = await delayedReadModel(
      () => 3_000,
      () => 3_000,
    );
    try {
      const fleet = new Fleet({
        daemons: 1,
        batch: 10,
        events: 10,
        seed: 4,
        organizations: 1,
        eventIds: false,
        startMs: 0,
      });
      const { freshness } = await measureFreshness(
        prepareFreshness(fleet.batches(), { markerEvery: 1, seed: 3 }),
        { apiUrl: slow.url, tokens: ['a'], concurrency: 1 },
        {
          probe: apiMarkerProbe(slow.url, ['a']),
          tracking: { pollMs: 10, relativePrecision: 0.05, timeoutMs: 10_000, scored: true },
        },
      );
      expect(freshness.queryable.count).toBe(1);
      expect(freshness.queryable.p50).toBeGreaterThanOrEqual(3_000 - 35);
      expect(freshness.queryable.p50).toBeLessThanOrEqual(3_000 * 1.05 + 10 + 150);
      // Every 10 ms up to 200 ms (20 probes), then each after 5 % of the wait (about 56 more): a fixed
      // 10 ms interval would have sent 300.
      expect(freshness.probes).toBeGreaterThanOrEqual(40);
      expect(freshness.probes).toBeLessThanOrEqual(110);
      expect(freshness.probingMs).toBeGreaterThanOrEqual(3_000 - 35);
    } finally {
      await new Promise((resolve) => slow.server.close(resolve));
    }
  });

  it('hands back, in order, the batches a phase that ran out of time did not send', async () => {
    const fleet = new Fleet({
      daemons: 2,
      batch: 10,
      events: 1_000,
      seed: 3,
      organizations: 1,
      eventIds: false,
      startMs: 0,
    });
    const prepared = prepareFreshness(fleet.batches(), { markerEvery: 10, seed: 2 });
    const { sent, unsent } = await measureFreshness(
      prepared,
      // 500 items/s for 300 ms: about 15 of the 100 batches.
      { apiUrl: stack.url, tokens: ['a', 'b'], concurrency: 1, rate: 500, durationMs: 300 },
      {
        probe: apiMarkerProbe(stack.url, ['a', 'b']),
        tracking: { pollMs: 10, relativePrecision: 0.05, timeoutMs: 5_000, scored: true },
      },
    );
    expect(sent.failed).toBe(0);
    expect(sent.requests).toBeGreaterThan(0);
    expect(sent.requests).toBeLessThan(prepared.batches.length);
    expect(unsent).toEqual(prepared.batches.slice(sent.requests));
  });
});
