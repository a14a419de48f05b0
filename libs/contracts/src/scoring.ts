import { z } from 'zod';
import { recordedDateTime, recordedUuid } from './common';

export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const SCORE_STATUSES = ['scored', 'pending', 'failed'] as const;
export const SCORING_SOURCES = ['graph', 'llm', 'hybrid'] as const;

/** The seven policy fields of the scoring spec, every one defaulted, as stored and published. */
export const policyDocument = z.object({
  sensitive_fields: z.array(z.string()),
  allowed_tools: z.array(z.string()),
  blocked_actions: z.array(z.string()),
  custom_rules: z.record(
    z.string(),
    z.object({ condition: z.string(), score_impact: z.number().int(), description: z.string() }),
  ),
  allowed_action_patterns: z.array(z.string()),
  blocked_action_patterns: z.array(z.string()),
  sensitive_classifications: z.array(z.string()),
});
export type PolicyDocument = z.infer<typeof policyDocument>;

/** Payload of `scoring.policies.v1`: a customer's policy after a change. Key: the organization id. */
export const policyChangedV1 = z.object({
  org_id: recordedUuid,
  version: z.number().int().positive(),
  policies: policyDocument,
  changed_at: recordedDateTime,
});
export type PolicyChangedV1 = z.infer<typeof policyChangedV1>;
export const POLICY_CHANGED_TYPE = 'agentwatch.scoring.policy.v1';

/** Payload of `scoring.scores.v1`: the outcome of scoring one event. Key: the event's session (or event) id. */
export const eventScoredV1 = z.object({
  event_id: recordedUuid,
  org_id: recordedUuid,
  session_id: recordedUuid.nullable(),
  status: z.enum(['scored', 'failed']),
  score: z.number().int().min(0).max(100).nullable(),
  risk_level: z.enum(RISK_LEVELS).nullable(),
  failure_reason: z.string().nullable(),
  scorer_version: z.string(),
  policy_version: z.number().int().nonnegative(),
  fingerprint: z.string(),
  scored_at: recordedDateTime,
});
export type EventScoredV1 = z.infer<typeof eventScoredV1>;
export const EVENT_SCORED_TYPE = 'agentwatch.scoring.score.v1';
