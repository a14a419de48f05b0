import { request } from 'undici';
import { Percentiles, summarize } from './domain/percentiles';

export interface MarkerState {
  queryable: boolean;
  scored: boolean;
}

/** A marker event's own session, and the daemon (so the organization) that sent it. */
export interface Marker {
  session: string;
  daemon: number;
}

/** Reads whether a marker is visible yet; the bench reads the cloud API, the test a server of its own. */
export type MarkerProbe = (marker: Marker) => Promise<MarkerState>;

export interface FreshnessOptions {
  /** The shortest time between two probes of a marker. */
  pollMs: number;
  /**
   * A marker that has waited t is probed again after `relativePrecision` × t when that is longer
   * than `pollMs`: a figure is then late by at most that fraction of itself, and a system that falls
   * behind is not buried under probes of the markers it has not shown yet (each probe is a request to
   * the API under test). 0 probes every marker every `pollMs`.
   */
  relativePrecision: number;
  /** A marker still invisible this long after its ack is counted as timed out. */
  timeoutMs: number;
  /** Whether to wait for scoring too (no scoring worker → only queryability). */
  scored: boolean;
}

export interface FreshnessReport {
  queryable: Percentiles;
  scored: Percentiles;
  timedOut: number;
  pollMs: number;
  relativePrecision: number;
  /** Probe requests sent, and how long from the first marker's ack to the last marker's end. */
  probes: number;
  probingMs: number;
  /**
   * Each marker in ack order: seconds from the first ack to its own, and its two figures (null: not
   * seen in time). Whether the waits grew, shrank or held over the phase: a stack still working off
   * its warm-up has percentiles that a steady one at the same load would not.
   */
  timeline: { ackedAtS: number; queryableMs: number | null; scoredMs: number | null }[];
}

interface Pending {
  marker: Marker;
  ackedAt: number;
  queryableMs?: number;
  scoredMs?: number;
  /** When the marker is probed next (performance.now()), and whether a probe of it is out. */
  dueAt: number;
  probing: boolean;
}

/**
 * Measures ack → visible by polling: each marker is probed from its ack until it is seen, every
 * `pollMs` at first and then after a fixed fraction of the time it has waited. A measured figure is
 * the true delay rounded up by at most one poll interval plus that fraction, and one probe's round
 * trip, so both are printed with the figures.
 */
export class FreshnessTracker {
  private readonly pending = new Set<Pending>();
  private readonly done: Pending[] = [];
  private timedOut = 0;
  private probes = 0;
  private firstAck?: number;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly probe: MarkerProbe,
    private readonly options: FreshnessOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.poll(), this.options.pollMs);
  }

  /** `ackedAt` is performance.now() when the 200 for the marker's batch arrived. */
  add(marker: Marker, ackedAt: number): void {
    this.firstAck ??= ackedAt;
    this.pending.add({ marker, ackedAt, dueAt: ackedAt, probing: false });
  }

  async drain(): Promise<FreshnessReport> {
    while (this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, this.options.pollMs));
    clearInterval(this.timer);
    return {
      queryable: summarize(this.done.flatMap((p) => (p.queryableMs === undefined ? [] : [p.queryableMs]))),
      scored: summarize(this.done.flatMap((p) => (p.scoredMs === undefined ? [] : [p.scoredMs]))),
      timedOut: this.timedOut,
      pollMs: this.options.pollMs,
      relativePrecision: this.options.relativePrecision,
      probes: this.probes,
      probingMs: this.firstAck === undefined ? 0 : performance.now() - this.firstAck,
      timeline: this.timeline(),
    };
  }

  private timeline(): FreshnessReport['timeline'] {
    const first = this.firstAck ?? 0;
    return [...this.done]
      .sort((a, b) => a.ackedAt - b.ackedAt)
      .map((p) => ({
        ackedAtS: Math.round(p.ackedAt - first) / 1000,
        queryableMs: p.queryableMs === undefined ? null : Math.round(p.queryableMs),
        scoredMs: p.scoredMs === undefined ? null : Math.round(p.scoredMs),
      }));
  }

  /** Probes the markers that are due; one probe per marker at a time, so a slow API gets no pile-up. */
  private poll(): void {
    const now = performance.now();
    for (const p of this.pending) if (!p.probing && p.dueAt <= now) void this.check(p);
  }

  private async check(p: Pending): Promise<void> {
    p.probing = true;
    this.probes++;
    const state = await this.probe(p.marker).catch(() => ({ queryable: false, scored: false }));
    const now = performance.now();
    p.probing = false;
    if (state.queryable && p.queryableMs === undefined) p.queryableMs = now - p.ackedAt;
    if (state.scored && p.scoredMs === undefined) p.scoredMs = now - p.ackedAt;
    const finished = p.queryableMs !== undefined && (!this.options.scored || p.scoredMs !== undefined);
    if (finished || now - p.ackedAt > this.options.timeoutMs) {
      if (!finished) this.timedOut++;
      this.pending.delete(p);
      this.done.push(p);
      return;
    }
    p.dueAt = now + this.options.relativePrecision * (now - p.ackedAt);
  }
}

/**
 * The cloud API probe: the marker's own session lists it once projected, with a risk_score once
 * scored. It reads with the sending daemon's token: another organization's session is a 404.
 */
export const apiMarkerProbe =
  (apiUrl: string, tokens: readonly string[]): MarkerProbe =>
  async ({ session, daemon }) => {
    const response = await request(`${apiUrl}/v1/sessions/${session}/events?limit=1`, {
      headers: { authorization: `Bearer ${tokens[daemon]}` },
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return { queryable: false, scored: false };
    }
    const { events } = (await response.body.json()) as { events: { risk_score: number | null }[] };
    return { queryable: events.length > 0, scored: events.length > 0 && events[0].risk_score !== null };
  };
