import { TenantData } from '@agentwatch/cells';
import { ProjectionLag } from '@agentwatch/kafka';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { RiskLevelCounts, riskLevelCounts } from './domain/risk-levels';
import { statsWindow } from './domain/stats-window';

const TOP_TOOLS = 10;

export interface EventStats {
  window: { since: string; until: string };
  total: number;
  by_action_type: Record<string, number>;
  by_decision: Record<string, number>;
  by_risk_level: RiskLevelCounts;
  top_tools: { tool_name: string; count: number }[];
  hourly: { hour: string; count: number }[];
  projection_lag: { events: { records_behind: number | null } };
}

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
