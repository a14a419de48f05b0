import { TenantData } from '@agentwatch/cells';
import { ProjectionLag } from '@agentwatch/kafka';
import { eventStats, GetEventStats, GetEventStatsHandler } from './get-event-stats';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';

// The rows of the counters' query: one per (dimension, key) with events in the window.
const counters = [
  { dimension: 'action_type', key: 'FILE_READ', count: 3 },
  { dimension: 'action_type', key: 'PROCESS_EXEC', count: 1 },
  { dimension: 'decision', key: 'allow', count: 3 },
  { dimension: 'decision', key: 'block', count: 1 },
  { dimension: 'tool', key: 'Read', count: 3 },
  { dimension: 'hour', key: '2026-10-01T08:00:00Z', count: 4 },
  { dimension: 'level', key: 'high', count: 2 },
];

const stats = (records_behind: number | null) =>
  new GetEventStatsHandler(
    {
      run: (_orgId: string, work: (q: unknown) => unknown) => work({ query: async () => counters }),
    } as unknown as TenantData,
    { recordsBehind: async () => records_behind } as unknown as ProjectionLag,
  ).execute(new GetEventStats(ORG, new Date('2026-10-01T08:30:00.000Z')));

describe('GET /v1/events/stats answers the documented body', () => {
  it.each([0, null])('with the projection %s records behind', async (behind) => {
    const answer = await stats(behind);
    expect(answer.by_risk_level).toMatchObject({ high: 2, unscored: 2 });
    expect(eventStats.parse(answer)).toEqual(answer);
  });
});
