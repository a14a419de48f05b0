import { TenantData } from '@agentwatch/cells';
import { RISK_LEVELS, SCORING_SOURCES } from '@agentwatch/contracts';
import { z } from 'zod';
import { badRequest, notFound } from '../http/api-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Score rows (`s`) with their detail documents, stored once per verdict (`v`, see the ScoreVerdicts migration). */
export const SCORES_WITH_VERDICTS =
  'event_scores s JOIN score_verdicts v ON v.org_id = s.org_id AND v.id = s.verdict_id';

export const DETAIL_COLUMNS = `s.event_id, s.status, s.score, s.risk_level, s.reasoning, v.violations, s.scoring_source,
  v.compliance_refs, v.mitigations, v.score_components, v.behavioral_flags, s.graph_score, s.llm_score, s.llm_fallback,
  v.score_decomposition, s.confidence, s.rule_score, s.scorer_version, s.policy_version, s.fingerprint,
  s.failure_reason, s.cache_hit, s.scored_at`;

const points = z.number().int().min(0).max(100);
const scoreComponent = z.object({ rule: z.string(), contribution: z.number().int() });

/** The score detail of an event the worker scored (or failed to: `failure_reason` says why). */
export const storedScoreDetail = z.object({
  event_id: z.uuid(),
  status: z.enum(['scored', 'failed']),
  score: points.nullable(),
  risk_level: z.enum(RISK_LEVELS).nullable(),
  reasoning: z.string(),
  violations: z.array(z.string()),
  scoring_source: z.enum(SCORING_SOURCES),
  compliance_refs: z.array(z.string()),
  mitigations: z.array(z.string()),
  score_components: z.array(scoreComponent),
  behavioral_flags: z.array(z.string()),
  graph_score: points.nullable(),
  llm_score: points.nullable(),
  llm_fallback: z.boolean(),
  // `final` is null on a failed score.
  score_decomposition: z.object({
    graph_weight: z.number(),
    llm_weight: z.number(),
    gnn_weight: z.number(),
    final: points.nullable(),
  }),
  // The co-processor is not enabled.
  gnn_score: z.null(),
  confidence: z.number().min(0).max(1),
  // The raw sum of the rule contributions, before the clamp to 0–100.
  rule_score: z.number().int().nullable(),
  scorer_version: z.string(),
  policy_version: z.number().int().nonnegative(),
  input_fingerprint: z.string(),
  failure_reason: z.string().nullable(),
  scored_at: z.iso.datetime(),
});

/** An event received but not scored yet: every score field null or empty. */
const pendingScoreDetail = z.object({
  event_id: z.uuid(),
  status: z.literal('pending'),
  score: z.null(),
  risk_level: z.null(),
  reasoning: z.string(),
  violations: z.array(z.string()).max(0),
  scoring_source: z.null(),
  compliance_refs: z.array(z.string()).max(0),
  mitigations: z.array(z.string()).max(0),
  score_components: z.array(scoreComponent).max(0),
  behavioral_flags: z.array(z.string()).max(0),
  graph_score: z.null(),
  llm_score: z.null(),
  llm_fallback: z.literal(false),
  score_decomposition: z.null(),
  gnn_score: z.null(),
  confidence: z.null(),
  rule_score: z.null(),
  scorer_version: z.null(),
  policy_version: z.null(),
  input_fingerprint: z.null(),
  failure_reason: z.null(),
  scored_at: z.null(),
});

/** GET /scores/event/{event_id}. */
export const scoreDetail = z.discriminatedUnion('status', [storedScoreDetail, pendingScoreDetail]);
export type ScoreDetail = z.infer<typeof scoreDetail>;
type StoredScoreDetail = z.infer<typeof storedScoreDetail>;

/** A row of SCORES_WITH_VERDICTS as DETAIL_COLUMNS read it. */
export interface ScoreRow extends Omit<StoredScoreDetail, 'gnn_score' | 'input_fingerprint' | 'scored_at'> {
  fingerprint: string;
  cache_hit: boolean;
  scored_at: Date;
}

const detailOf = (row: ScoreRow): StoredScoreDetail => ({
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

const PENDING = (eventId: string): z.infer<typeof pendingScoreDetail> => ({
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
export async function readScoreDetail(db: TenantData, orgId: string, eventId: string): Promise<ScoreDetail> {
  if (!UUID.test(eventId)) throw badRequest('Invalid event_id: expected a UUID');
  return db.run(orgId, async (q) => {
    const [row]: ScoreRow[] = await q.query(
      `SELECT ${DETAIL_COLUMNS} FROM ${SCORES_WITH_VERDICTS} WHERE s.org_id = $1 AND s.event_id = $2`,
      [orgId, eventId],
    );
    if (row) return detailOf(row);
    const known = await q.query('SELECT 1 FROM events WHERE org_id = $1 AND id = $2', [orgId, eventId]);
    if (known.length === 0) throw notFound('Event not found');
    return PENDING(eventId);
  });
}
