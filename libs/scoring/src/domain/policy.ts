import { PolicyDocument, storableText } from '@agentwatch/contracts';
import { z } from 'zod';
import { Condition, ConditionError, compileCondition } from './condition';
import { patternShapeError } from './pattern';

/** score_impact bounds: a single custom rule can take an event from 0 to critical or clear it entirely. */
export const MIN_SCORE_IMPACT = -100;
export const MAX_SCORE_IMPACT = 100;
export const MAX_LIST_ENTRIES = 1000;
export const MAX_CUSTOM_RULES = 200;
const RULE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export const EMPTY_POLICY: PolicyDocument = {
  sensitive_fields: [],
  allowed_tools: [],
  blocked_actions: [],
  custom_rules: {},
  allowed_action_patterns: [],
  blocked_action_patterns: [],
  sensitive_classifications: [],
};

// Budgets in UTF-8 bytes (three per character of the former limits): the policy is stored as jsonb.
const names = z.array(storableText(1536).min(1)).max(MAX_LIST_ENTRIES);
const patterns = z
  .array(
    storableText(3072).superRefine((value, ctx) => {
      const error = patternShapeError(value);
      if (error) ctx.addIssue({ code: 'custom', message: error });
    }),
  )
  .max(MAX_LIST_ENTRIES);

const customRule = z.strictObject({
  condition: storableText(16_384).superRefine((value, ctx) => {
    try {
      compileCondition(value);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  }),
  score_impact: z.number().int().min(MIN_SCORE_IMPACT).max(MAX_SCORE_IMPACT),
  description: storableText(6000),
});

/** A request body: every field optional; an omitted one is the empty default (PUT is a full replacement). */
export const policyRequest = z.strictObject({
  sensitive_fields: names.default([]),
  allowed_tools: names.default([]),
  blocked_actions: patterns.default([]),
  custom_rules: z
    .record(z.string().regex(RULE_ID, 'rule ids are 1-64 letters, digits, _ . or -'), customRule)
    .refine((rules) => Object.keys(rules).length <= MAX_CUSTOM_RULES, `at most ${MAX_CUSTOM_RULES} custom rules`)
    .default({}),
  allowed_action_patterns: patterns.default([]),
  blocked_action_patterns: patterns.default([]),
  sensitive_classifications: names.default([]),
});

export interface PolicyIssue {
  path: string;
  message: string;
}

export type ParsedPolicy = { ok: true; policy: PolicyDocument } | { ok: false; issues: PolicyIssue[] };

export function parsePolicy(body: unknown): ParsedPolicy {
  const parsed = policyRequest.safeParse(body ?? {});
  if (parsed.success) return { ok: true, policy: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      path: [
        ...issue.path.map(String),
        ...(issue.code === 'unrecognized_keys' ? [(issue as { keys: string[] }).keys.join(',')] : []),
      ].join('.'),
      message: issue.message,
    })),
  };
}

/** A policy ready to evaluate: the document, its version and its conditions compiled once. */
export interface CompiledPolicy {
  version: number;
  document: PolicyDocument;
  conditions: Map<string, Condition>;
}

export function compilePolicy(document: PolicyDocument, version: number): CompiledPolicy {
  const conditions = new Map<string, Condition>();
  for (const [id, rule] of Object.entries(document.custom_rules)) {
    try {
      conditions.set(id, compileCondition(rule.condition));
    } catch (error) {
      // Saved conditions compiled when they were saved; one that no longer does (a newer evaluator)
      // fails the events it would judge, visibly, instead of stopping every organization's scoring.
      if (!(error instanceof ConditionError)) throw error;
      conditions.set(id, () => {
        throw error;
      });
    }
  }
  return { version, document, conditions };
}

export const NO_POLICY: CompiledPolicy = { version: 0, document: EMPTY_POLICY, conditions: new Map() };

/** The version in effect at `at` (ms): the latest saved at or before it; none → NO_POLICY. `versions` ascend. */
export function policyInEffect(
  versions: readonly { at: number; policy: CompiledPolicy }[],
  at: number,
): CompiledPolicy {
  let found = NO_POLICY;
  for (const version of versions) {
    if (version.at > at) break;
    found = version.policy;
  }
  return found;
}
