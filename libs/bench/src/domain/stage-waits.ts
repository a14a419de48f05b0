import { Bucket, histogramQuantile } from './histogram-quantile';
import { Sample } from './prometheus-text';

/** The runner's histograms of where a record's time goes (libs/kafka projection-timing.ts). */
export const STAGE_HISTOGRAMS = {
  fetch: 'agentwatch_projection_fetch_wait_seconds',
  commit: 'agentwatch_projection_commit_wait_seconds',
} as const;
export type Stage = keyof typeof STAGE_HISTOGRAMS;

export interface StageWait {
  app: string;
  consumer: string;
  /** The base topic, without the deployment's prefix. */
  topic: string;
  /** fetch: broker timestamp → taken up by the consumer; commit: taken up → transaction committed. */
  stage: Stage;
  /** Observations between the scrapes: appended record batches, not records. */
  count: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

/**
 * What each app's stage histograms gained between two scrapes of its /metrics (samples by app), as
 * p50/p99 in milliseconds; series without observations in between are left out.
 */
export function stageWaits(
  before: Record<string, readonly Sample[]>,
  after: Record<string, readonly Sample[]>,
  prefix: string,
): StageWait[] {
  const waits: StageWait[] = [];
  for (const [app, samples] of Object.entries(after)) {
    for (const [stage, histogram] of Object.entries(STAGE_HISTOGRAMS) as [Stage, string][]) {
      const earlier = bucketsBySeries(before[app] ?? [], histogram);
      for (const [key, buckets] of bucketsBySeries(samples, histogram)) {
        const gained = increase(buckets, earlier.get(key));
        const count = gained.find((b) => b.le === Infinity)?.count ?? 0;
        if (count <= 0) continue;
        const [consumer, topic] = JSON.parse(key) as [string, string];
        const ms = (q: number) => {
          const seconds = histogramQuantile(q, gained);
          return seconds === null ? null : seconds * 1000;
        };
        waits.push({
          app,
          consumer,
          topic: topic.startsWith(prefix) ? topic.slice(prefix.length) : topic,
          stage,
          count,
          p50Ms: ms(0.5),
          p99Ms: ms(0.99),
        });
      }
    }
  }
  return waits;
}

/** A histogram's cumulative buckets per {consumer, topic}, keyed by both as JSON. */
function bucketsBySeries(samples: readonly Sample[], histogram: string): Map<string, Bucket[]> {
  const series = new Map<string, Bucket[]>();
  for (const { name, labels, value } of samples) {
    if (name !== `${histogram}_bucket`) continue;
    const key = JSON.stringify([labels.consumer ?? '', labels.topic ?? '']);
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    series.set(key, [...(series.get(key) ?? []), { le, count: value }]);
  }
  return series;
}

/** After minus before per bucket; a series that went down was restarted, and counts from zero. */
function increase(after: Bucket[], before: Bucket[] | undefined): Bucket[] {
  const earlier = new Map((before ?? []).map((b) => [b.le, b.count]));
  const restarted = after.some((b) => b.count < (earlier.get(b.le) ?? 0));
  return after.map((b) => ({ le: b.le, count: restarted ? b.count : b.count - (earlier.get(b.le) ?? 0) }));
}
