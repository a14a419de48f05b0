import { parsePrometheusText } from './prometheus-text';
import { stageWaits } from './stage-waits';

const prefix = 'bench-a.';
/** One app's scrape: per stage, per consumer/topic, cumulative counts at le 0.1, 1, 10, +Inf. */
const scrape = (series: { stage: 'fetch' | 'commit'; consumer: string; topic: string; counts: number[] }[]) =>
  parsePrometheusText(
    series
      .flatMap(({ stage, consumer, topic, counts }) =>
        ['0.1', '1', '10', '+Inf'].map(
          (le, i) =>
            `agentwatch_projection_${stage}_wait_seconds_bucket{le="${le}",consumer="${consumer}",topic="${prefix}${topic}"} ${counts[i]}`,
        ),
      )
      .join('\n'),
  );

describe('stageWaits', () => {
  it("gives each app's stages p50/p99 of what they observed between the scrapes", () => {
    const events = { consumer: 'ingest', topic: 'ingest.events.v1' };
    const before = {
      projector: scrape([
        { stage: 'fetch', ...events, counts: [100, 100, 100, 100] },
        { stage: 'commit', ...events, counts: [50, 100, 100, 100] },
        { stage: 'fetch', consumer: 'ingest', topic: 'ingest.sessions.v1', counts: [5, 5, 5, 5] },
      ]),
    };
    const after = {
      projector: scrape([
        // Between the scrapes: 100 fetch waits in (1, 10] s, 100 commit waits ≤ 0.1 s.
        { stage: 'fetch', ...events, counts: [100, 100, 200, 200] },
        { stage: 'commit', ...events, counts: [150, 200, 200, 200] },
        // Nothing new: left out.
        { stage: 'fetch', consumer: 'ingest', topic: 'ingest.sessions.v1', counts: [5, 5, 5, 5] },
      ]),
      'scoring-worker': scrape([
        { stage: 'fetch', consumer: 'scores', topic: 'ingest.events.v1', counts: [0, 4, 4, 4] },
      ]),
    };
    const waits = stageWaits(before, after, prefix);
    expect(
      waits.map(({ p50Ms, p99Ms, ...rest }) => ({
        ...rest,
        p50: Math.round(p50Ms ?? -1),
        p99: Math.round(p99Ms ?? -1),
      })),
    ).toEqual([
      { app: 'projector', ...events, stage: 'fetch', count: 100, p50: 5500, p99: 9910 },
      { app: 'projector', ...events, stage: 'commit', count: 100, p50: 50, p99: 99 },
      // No scrape before (the app had just started): everything counts.
      {
        app: 'scoring-worker',
        consumer: 'scores',
        topic: 'ingest.events.v1',
        stage: 'fetch',
        count: 4,
        p50: 550,
        p99: 991,
      },
    ]);
  });

  it('counts a restarted app from zero', () => {
    const series = { stage: 'commit' as const, consumer: 'ingest', topic: 'ingest.events.v1' };
    const waits = stageWaits(
      { projector: scrape([{ ...series, counts: [500, 500, 500, 500] }]) },
      { projector: scrape([{ ...series, counts: [10, 10, 10, 10] }]) },
      prefix,
    );
    expect(waits.map((w) => w.count)).toEqual([10]);
  });
});
