import { TenantData } from '@agentwatch/cells';
import { RiskLevel } from '@agentwatch/contracts';
import { badRequest, notFound } from '../http/api-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DETAIL_COLUMNS = `event_id, status, score, risk_level, reasoning, violations, scoring_source, compliance_refs,
  mitigations, score_components, behavioral_flags, graph_score, llm_score, llm_fallback, score_decomposition,
  confidence, rule_score, scorer_version, policy_version, fingerprint, failure_reason, cache_hit, scored_at`;

export interface ScoreRow {
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

/** A score row of the worker's projection; an event received but not scored yet reads as `pending`. */
export async function readScoreDetail(db: TenantData, orgId: string, eventId: string) {
  if (!UUID.test(eventId)) throw badRequest('Invalid event_id: expected a UUID');
  return db.run(orgId, async (q) => {
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
