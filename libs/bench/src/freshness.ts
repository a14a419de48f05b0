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
  pollMs: number;
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
}

interface Pending {
  marker: Marker;
  ackedAt: number;
  queryableMs?: number;
  scoredMs?: number;
}

/**
 * Measures ack → visible by polling: each marker is probed every `pollMs` from its ack until it is
 * seen. A measured figure is the true delay rounded up by at most one poll interval plus one probe's
 * round trip, so the poll interval is printed with the figures.
 */
export class FreshnessTracker {
  private readonly pending = new Set<Pending>();
  private readonly done: Pending[] = [];
  private timedOut = 0;
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly probe: MarkerProbe,
    private readonly options: FreshnessOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
  }

  /** `ackedAt` is performance.now() when the 200 for the marker's batch arrived. */
  add(marker: Marker, ackedAt: number): void {
    this.pending.add({ marker, ackedAt });
  }

  async drain(): Promise<FreshnessReport> {
    while (this.pending.size > 0) await new Promise((resolve) => setTimeout(resolve, this.options.pollMs));
    clearInterval(this.timer);
    return {
      queryable: summarize(this.done.flatMap((p) => (p.queryableMs === undefined ? [] : [p.queryableMs]))),
      scored: summarize(this.done.flatMap((p) => (p.scoredMs === undefined ? [] : [p.scoredMs]))),
      timedOut: this.timedOut,
      pollMs: this.options.pollMs,
    };
  }

  private async poll(): Promise<void> {
    if (this.polling) return; // a slow round must not pile probes on a loaded API
    this.polling = true;
    try {
      await Promise.all([...this.pending].map((p) => this.check(p)));
    } finally {
      this.polling = false;
    }
  }

  private async check(p: Pending): Promise<void> {
    const state = await this.probe(p.marker).catch(() => ({ queryable: false, scored: false }));
    const now = performance.now();
    if (state.queryable && p.queryableMs === undefined) p.queryableMs = now - p.ackedAt;
    if (state.scored && p.scoredMs === undefined) p.scoredMs = now - p.ackedAt;
    const finished = p.queryableMs !== undefined && (!this.options.scored || p.scoredMs !== undefined);
    if (finished || now - p.ackedAt > this.options.timeoutMs) {
      if (!finished) this.timedOut++;
      this.pending.delete(p);
      this.done.push(p);
    }
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
