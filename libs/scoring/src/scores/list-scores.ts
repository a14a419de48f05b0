import { TenantData } from '@agentwatch/cells';
import { RISK_LEVELS } from '@agentwatch/contracts';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { badRequest, customerNotFound } from '../http/api-errors';
import { DETAIL_COLUMNS, SCORES_WITH_VERDICTS, ScoreRow, storedScoreDetail } from './score-detail';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

// PostgreSQL's timestamptz starts in 4713 BC (JavaScript year -4712).
const PG_EARLIEST_MS = Date.UTC(-4712, 0, 1);

export interface ListQuery {
  page?: string;
  per_page?: string;
  risk_level?: string;
  from_date?: string;
}

function positiveInt(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`${name} must be an integer from 1 to ${max}`);
  return n;
}

/** A listed score: the detail's figures (only `scored` events are listed), `final_score`, and whether the model's answer was cached. */
export const scoreSummary = storedScoreDetail
  .pick({
    event_id: true,
    risk_level: true,
    reasoning: true,
    violations: true,
    rule_score: true,
    llm_score: true,
    llm_fallback: true,
    scored_at: true,
    score_decomposition: true,
    gnn_score: true,
    confidence: true,
    graph_score: true,
  })
  .extend({ final_score: storedScoreDetail.shape.score, cache_hit: z.boolean() });

/** GET /scores/{customer_id}: one numbered page, and how many scores match in all. */
export const scoreList = z.object({
  scores: z.array(scoreSummary),
  page: z.number().int().min(1),
  per_page: z.number().int().min(1).max(MAX_PER_PAGE),
  total: z.number().int().nonnegative(),
});
export type ListedScores = z.infer<typeof scoreList>;

const summaryOf = (row: ScoreRow): z.infer<typeof scoreSummary> => ({
  event_id: row.event_id,
  final_score: row.score,
  risk_level: row.risk_level,
  reasoning: row.reasoning,
  violations: row.violations,
  rule_score: row.rule_score,
  llm_score: row.llm_score,
  cache_hit: row.cache_hit,
  llm_fallback: row.llm_fallback,
  scored_at: row.scored_at.toISOString(),
  score_decomposition: row.score_decomposition,
  gnn_score: null,
  confidence: Math.round(row.confidence * 100) / 100,
  graph_score: row.graph_score,
});

/** GET /scores/{customer_id}: scored events, newest first, paged by page number. */
export class ListScores extends Query<ListedScores> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
    readonly query: ListQuery,
  ) {
    super();
  }
}

@QueryHandler(ListScores)
export class ListScoresHandler implements IQueryHandler<ListScores> {
  constructor(private readonly db: TenantData) {}

  async execute({ orgId, customerId, query }: ListScores): Promise<ListedScores> {
    if (customerId !== orgId) throw customerNotFound();
    const page = positiveInt(query.page, 'page', 1, 1_000_000);
    const perPage = positiveInt(query.per_page, 'per_page', DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const level = query.risk_level || null;
    if (level !== null && !(RISK_LEVELS as readonly string[]).includes(level)) {
      throw badRequest(`risk_level must be one of ${RISK_LEVELS.join(', ')}`);
    }
    const from = typeof query.from_date === 'string' && query.from_date !== '' ? new Date(query.from_date) : null;
    // A date JavaScript reads but PostgreSQL cannot store (before 4713 BC) is as invalid as "yesterday".
    if (
      (query.from_date !== undefined && query.from_date !== '' && from === null) ||
      (from !== null && (Number.isNaN(from.getTime()) || from.getTime() < PG_EARLIEST_MS))
    ) {
      throw badRequest('from_date must be an ISO 8601 date-time');
    }
    return this.db.run(orgId, async (q) => {
      const where = `s.org_id = $1 AND s.status = 'scored' AND ($2::text IS NULL OR s.risk_level = $2)
                     AND ($3::timestamptz IS NULL OR s.scored_at >= $3)`;
      const params = [orgId, level, from];
      const [{ total }] = await q.query(`SELECT count(*)::int AS total FROM event_scores s WHERE ${where}`, params);
      const rows: ScoreRow[] = await q.query(
        `SELECT ${DETAIL_COLUMNS} FROM ${SCORES_WITH_VERDICTS} WHERE ${where}
          ORDER BY s.scored_at DESC, s.event_id DESC LIMIT $4 OFFSET $5`,
        [...params, perPage, (page - 1) * perPage],
      );
      return {
        scores: rows.map(summaryOf),
        page,
        per_page: perPage,
        total,
      };
    });
  }
}
