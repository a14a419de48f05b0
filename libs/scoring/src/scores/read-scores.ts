import { RISK_LEVELS, RiskLevel } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { Injectable } from '@nestjs/common';
import { justify, ScoredResult } from '../domain/justification';
import { badRequest, customerNotFound, notFound } from '../http/api-errors';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

// PostgreSQL's timestamptz starts in 4713 BC (JavaScript year -4712).
const PG_EARLIEST_MS = Date.UTC(-4712, 0, 1);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DETAIL_COLUMNS = `event_id, status, score, risk_level, reasoning, violations, scoring_source, compliance_refs,
  mitigations, score_components, behavioral_flags, graph_score, llm_score, llm_fallback, score_decomposition,
  confidence, rule_score, scorer_version, policy_version, fingerprint, failure_reason, cache_hit, scored_at`;

interface ScoreRow {
  event_id: string;
  status: 'scored' | 'failed';
  score: number | null;
  risk_level: RiskLevel | null;
  reasoning: string;
  violations: string[];
  scoring_source: string;
  compliance_refs: string[];
  mitigations: string[];
  score_components: { rule: string; contribution: number }[];
  behavioral_flags: string[];
  graph_score: number | null;
  llm_score: number | null;
  llm_fallback: boolean;
  score_decomposition: Record<string, number | null>;
  confidence: number;
  rule_score: number | null;
  scorer_version: string;
  policy_version: number;
  fingerprint: string;
  failure_reason: string | null;
  cache_hit: boolean;
  scored_at: Date;
}

const detailOf = (row: ScoreRow) => ({
  event_id: row.event_id,
  status: row.status,
  score: row.score,
  risk_level: row.risk_level,
  reasoning: row.reasoning,
  violations: row.violations,
  scoring_source: row.scoring_source,
  compliance_refs: row.compliance_refs,
  mitigations: row.mitigations,
  score_components: row.score_components,
  behavioral_flags: row.behavioral_flags,
  graph_score: row.graph_score,
  llm_score: row.llm_score,
  llm_fallback: row.llm_fallback,
  score_decomposition: row.score_decomposition,
  gnn_score: null,
  confidence: Math.round(row.confidence * 100) / 100,
  rule_score: row.rule_score,
  scorer_version: row.scorer_version,
  policy_version: row.policy_version,
  input_fingerprint: row.fingerprint,
  failure_reason: row.failure_reason,
  scored_at: row.scored_at.toISOString(),
});

const PENDING = (eventId: string) => ({
  event_id: eventId,
  status: 'pending',
  score: null,
  risk_level: null,
  reasoning: 'The event has been received and is waiting to be scored.',
  violations: [],
  scoring_source: null,
  compliance_refs: [],
  mitigations: [],
  score_components: [],
  behavioral_flags: [],
  graph_score: null,
  llm_score: null,
  llm_fallback: false,
  score_decomposition: null,
  gnn_score: null,
  confidence: null,
  rule_score: null,
  scorer_version: null,
  policy_version: null,
  input_fingerprint: null,
  failure_reason: null,
  scored_at: null,
});

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

/** Score detail, score list and justification: reads of the worker's projection, scoped by row-level security. */
@Injectable()
export class ReadScores {
  constructor(private readonly db: OrgScope) {}

  async detail(orgId: string, eventId: string) {
    if (!UUID.test(eventId)) throw badRequest('Invalid event_id: expected a UUID');
    return this.db.run(orgId, async (q) => {
      const [row]: ScoreRow[] = await q.query(
        `SELECT ${DETAIL_COLUMNS} FROM event_scores WHERE org_id = $1 AND event_id = $2`,
        [orgId, eventId],
      );
      if (row) return detailOf(row);
      const known = await q.query('SELECT 1 FROM events WHERE org_id = $1 AND id = $2', [orgId, eventId]);
      if (known.length === 0) throw notFound('Event not found');
      return PENDING(eventId);
    });
  }

  async list(orgId: string, customerId: string, query: ListQuery) {
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
      const where = `org_id = $1 AND status = 'scored' AND ($2::text IS NULL OR risk_level = $2)
                     AND ($3::timestamptz IS NULL OR scored_at >= $3)`;
      const params = [orgId, level, from];
      const [{ total }] = await q.query(`SELECT count(*)::int AS total FROM event_scores WHERE ${where}`, params);
      const rows: ScoreRow[] = await q.query(
        `SELECT ${DETAIL_COLUMNS} FROM event_scores WHERE ${where}
          ORDER BY scored_at DESC, event_id DESC LIMIT $4 OFFSET $5`,
        [...params, perPage, (page - 1) * perPage],
      );
      return {
        scores: rows.map((row) => ({
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
        })),
        page,
        per_page: perPage,
        total,
      };
    });
  }

  async justification(orgId: string, eventId: string | undefined) {
    if (!eventId) throw badRequest('event_id query parameter required');
    const detail = await this.detail(orgId, eventId);
    if (detail.status !== 'scored') throw notFound(`No justification: the event's score is ${detail.status}`);
    return justify(detail as ScoredResult);
  }
}
