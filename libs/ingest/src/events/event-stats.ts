import { OrgScope } from '@agentwatch/db';
import { ProjectionLag } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';

const RISK_LEVEL = `CASE WHEN risk_score IS NULL THEN 'unscored' WHEN risk_score = 0 THEN 'none'
  WHEN risk_score < 25 THEN 'low' WHEN risk_score < 50 THEN 'medium' WHEN risk_score < 75 THEN 'high' ELSE 'critical' END`;

const TOP_TOOLS = 10;

export interface EventStats {
  window: { since: string; until: string };
  total: number;
  by_action_type: Record<string, number>;
  by_decision: Record<string, number>;
  by_risk_level: Record<string, number>;
  top_tools: { tool_name: string; count: number }[];
  hourly: { hour: string; count: number }[];
  projection_lag: { events: { records_behind: number | null } };
}

/** GET /v1/events/stats: the last 24 hours of the caller's events, aggregated in one scan. */
@Injectable()
export class EventStatistics {
  constructor(
    private readonly db: OrgScope,
    private readonly lag: ProjectionLag,
  ) {}

  async get(orgId: string, now = new Date()): Promise<EventStats> {
    const since = new Date(now.getTime() - 24 * 3600_000);
    const rows: { dimension: string; key: string | null; count: number }[] = await this.db.run(orgId, (q) =>
      q.query(
        `SELECT CASE WHEN GROUPING(action_type) = 0 THEN 'action_type' WHEN GROUPING(decision) = 0 THEN 'decision'
                     WHEN GROUPING(level) = 0 THEN 'level' WHEN GROUPING(tool_name) = 0 THEN 'tool' ELSE 'hour' END AS dimension,
                COALESCE(action_type, decision, level, tool_name, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"')) AS key,
                count(*)::int AS count
           FROM (SELECT action_type, decision, tool_name, ${RISK_LEVEL} AS level, date_trunc('hour', "timestamp") AS hour
                   FROM events WHERE org_id = $1 AND "timestamp" >= $2 AND "timestamp" <= $3) w
          GROUP BY GROUPING SETS ((action_type), (decision), (level), (tool_name), (hour))`,
        [orgId, since, now],
      ),
    );
    const of = (dimension: string) => rows.filter((r) => r.dimension === dimension && r.key !== null);
    const tally = (dimension: string): Record<string, number> =>
      Object.fromEntries(of(dimension).map((r) => [r.key, r.count]));
    const byAction = tally('action_type');
    return {
      window: { since: since.toISOString(), until: now.toISOString() },
      total: Object.values(byAction).reduce((sum, n) => sum + n, 0),
      by_action_type: byAction,
      by_decision: tally('decision'),
      by_risk_level: { none: 0, low: 0, medium: 0, high: 0, critical: 0, unscored: 0, ...tally('level') },
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
