import { TenantData } from '@agentwatch/cells';
import { ACTION_TYPES, DECISIONS, recordedDateTime } from '@agentwatch/contracts';
import { ProjectionLag } from '@agentwatch/kafka';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { riskLevelCounts } from './domain/risk-levels';
import { statsWindow } from './domain/stats-window';

const TOP_TOOLS = 10;

const count = z.number().int().nonnegative();

/**
 * The answer of GET /v1/events/stats. Action types and decisions no event of the window had are
 * absent; every risk level is present, zero when none. `hour` is a whole UTC hour ("…T08:00:00Z").
 */
export const eventStats = z.object({
  window: z.object({ since: recordedDateTime, until: recordedDateTime }),
  total: count,
  by_action_type: z.partialRecord(z.enum(ACTION_TYPES), count),
  by_decision: z.partialRecord(z.enum(DECISIONS), count),
  by_risk_level: z.object({ none: count, low: count, medium: count, high: count, critical: count, unscored: count }),
  top_tools: z.array(z.object({ tool_name: z.string(), count })),
  hourly: z.array(z.object({ hour: recordedDateTime, count })),
  // Null when Kafka cannot be asked.
  projection_lag: z.object({ events: z.object({ records_behind: count.nullable() }) }),
});
export type EventStats = z.infer<typeof eventStats>;

/**
 * GET /v1/events/stats: the caller's last 24 hours, read from the hourly counters that the events
 * table's triggers keep (migrations EventHourlyCounts, EventHourlyRisk): a few thousand counter rows
 * at most, however many events the organization has. Levels are counted for scored events only.
 */
export class GetEventStats extends Query<EventStats> {
  constructor(
    readonly orgId: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

@QueryHandler(GetEventStats)
export class GetEventStatsHandler implements IQueryHandler<GetEventStats> {
  constructor(
    private readonly db: TenantData,
    private readonly lag: ProjectionLag,
  ) {}

  async execute({ orgId, now }: GetEventStats): Promise<EventStats> {
    const { since, until } = statsWindow(now);
    const rows: { dimension: string; key: string | null; count: number }[] = await this.db.run(orgId, (q) =>
      q.query(
        `SELECT CASE WHEN GROUPING(action_type) = 0 THEN 'action_type' WHEN GROUPING(decision) = 0 THEN 'decision'
                     WHEN GROUPING(tool_name) = 0 THEN 'tool' ELSE 'hour' END AS dimension,
                COALESCE(action_type, decision, tool_name, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"')) AS key,
                sum(count)::int AS count
           FROM event_hourly_counts WHERE org_id = $1 AND hour >= $2 AND hour < $3
          GROUP BY GROUPING SETS ((action_type), (decision), (tool_name), (hour))
         HAVING sum(count) > 0
         UNION ALL
         SELECT 'level', risk_level, sum(count)::int
           FROM event_hourly_risk WHERE org_id = $1 AND hour >= $2 AND hour < $3
          GROUP BY risk_level
         HAVING sum(count) > 0`,
        [orgId, since, until],
      ),
    );
    const of = (dimension: string) => rows.filter((r) => r.dimension === dimension && r.key !== null);
    const tally = (dimension: string): Record<string, number> =>
      Object.fromEntries(of(dimension).map((r) => [r.key, r.count]));
    const byAction = tally('action_type');
    const total = Object.values(byAction).reduce((sum, n) => sum + n, 0);
    const scored = tally('level');
    return {
      window: { since: since.toISOString(), until: until.toISOString() },
      total,
      by_action_type: byAction,
      by_decision: tally('decision'),
      by_risk_level: riskLevelCounts(total, scored),
      top_tools: of('tool')
        .sort((a, b) => b.count - a.count || a.key!.localeCompare(b.key!))
        .slice(0, TOP_TOOLS)
        .map((r) => ({ tool_name: r.key!, count: r.count })),
      hourly: of('hour')
        .sort((a, b) => a.key!.localeCompare(b.key!))
        .map((r) => ({ hour: r.key!, count: r.count })),
      projection_lag: { events: { records_behind: await this.lag.recordsBehind('projector.events') } },
    };
  }
}
