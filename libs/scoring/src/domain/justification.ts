import { RISK_LEVELS, RiskLevel } from '@agentwatch/contracts';
import { z } from 'zod';
import { FRAMEWORKS, FrameworkKey, VIOLATIONS } from './compliance';
import { ScoreComponent } from './engine';

const frameworkKeys = Object.keys(FRAMEWORKS) as [FrameworkKey, ...FrameworkKey[]];

/** GET /justification: the report of the spec, its violations mapped to framework articles. */
export const justificationReport = z.object({
  event_id: z.uuid(),
  score: z.number().int().min(0).max(100).nullable(),
  risk_level: z.enum(RISK_LEVELS).nullable(),
  summary: z.string(),
  score_justification: z.string(),
  violation_details: z.array(
    z.object({
      violation: z.string(),
      article: z.string(),
      // The framework's display name ("EU AI Act"); `frameworks_impacted` holds its key ("EU_AI_Act").
      framework: z.enum(Object.values(FRAMEWORKS)),
      explanation: z.string(),
      consequence: z.string(),
    }),
  ),
  remediation_steps: z.array(z.string()),
  frameworks_impacted: z.array(z.enum(frameworkKeys)),
});
export type JustificationReport = z.infer<typeof justificationReport>;

/** What a justification is built from: a scored event's stored result. */
export interface ScoredResult {
  event_id: string;
  score: number | null;
  risk_level: RiskLevel | null;
  violations: string[];
  score_components: ScoreComponent[];
  rule_score: number | null;
  graph_score: number | null;
  llm_score: number | null;
  score_decomposition: { graph_weight?: number; llm_weight?: number } | null;
  mitigations: string[];
}

const signed = (n: number) => (n >= 0 ? `+${n}` : String(n));

/** The justification report of the spec: violations mapped to framework articles through the data table. */
export function justify(result: ScoredResult): JustificationReport {
  const { violations } = result;
  const known = violations.filter((v) => VIOLATIONS[v] !== undefined);
  const parts = result.score_components.map((c) => `${c.rule} ${signed(c.contribution)}`);
  const weights = result.score_decomposition ?? {};
  return {
    event_id: result.event_id,
    score: result.score,
    risk_level: result.risk_level,
    summary:
      violations.length === 0
        ? `Score ${result.score} (${result.risk_level}): no policy or compliance violation was found.`
        : `Score ${result.score} (${result.risk_level}): ${violations.length} violation(s): ${violations.join(', ')}.`,
    score_justification:
      `Rule engine: ${parts.length ? parts.join(', ') : 'no rule matched'} = ${result.rule_score}, ` +
      `clamped to ${result.graph_score}. ` +
      (result.llm_score === null
        ? 'The language model was not consulted; the graph score is final.'
        : `Language model scored ${result.llm_score}; final ${result.score} = ${weights.graph_weight} × graph + ` +
          `${weights.llm_weight} × model.`),
    violation_details: known.flatMap((violation) =>
      VIOLATIONS[violation].articles.map(([framework, article]) => ({
        violation,
        article,
        framework: FRAMEWORKS[framework],
        explanation: VIOLATIONS[violation].explanation,
        consequence: VIOLATIONS[violation].consequence,
      })),
    ),
    remediation_steps: result.mitigations,
    frameworks_impacted: [
      ...new Set<FrameworkKey>(known.flatMap((v) => VIOLATIONS[v].articles.map(([framework]) => framework))),
    ],
  };
}
