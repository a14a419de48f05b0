import { RiskLevel } from '@agentwatch/contracts';
import { Action, actionOf, ScoredEvent } from './action';
import { complianceRefs, mitigationsFor } from './compliance';
import { ConditionInput } from './condition';
import { changesPrivilege, Fact, GraphNode, graphHits, isOutboundConnect } from './graph';
import { matchesPattern } from './pattern';
import { CompiledPolicy } from './policy';

export const SCORER_VERSION = 'agentwatch-rules/1.0.0';

/** Points of each built-in rule (custom rules bring their own score_impact). */
export const CONTRIBUTIONS = {
  blocked_action: 60,
  blocked_pattern: 45,
  allowed_pattern: -20,
  unlisted_tool: 25,
  sensitive_field: 20,
  sensitive_classification: 25,
  sensitive_path: 15,
  daemon_block: 30,
  'graph.sensitive_read_then_connect': 40,
  'graph.delete_burst': 30,
  'graph.remote_script_pipe': 50,
  'graph.privilege_change': 35,
  'graph.after_privilege_change': 15,
} as const;

const GRAPH_VIOLATIONS: Record<string, string> = {
  'graph.sensitive_read_then_connect': 'data_exfiltration_risk',
  'graph.delete_burst': 'destructive_burst',
  'graph.remote_script_pipe': 'remote_code_execution',
  'graph.privilege_change': 'privilege_escalation',
  'graph.after_privilege_change': 'privilege_escalation',
};

/** Confidence of the rule engine (the LLM is consulted at or below LLM_CONFIDENCE_THRESHOLD). */
export const CONFIDENCE = { unmapped: 0.5, heuristic: 0.7, clean: 0.9, certain: 0.95 } as const;
export const LLM_CONFIDENCE_THRESHOLD = 0.8;

// Credentials and keys a developer machine keeps; reading them is sensitive whatever the policy says.
const SENSITIVE_PATH =
  /(^|[\\/])(\.ssh[\\/]|\.aws[\\/]credentials|\.env(\.[\w-]+)?$|id_(rsa|ecdsa|ed25519)|\.netrc$|\.npmrc$|\.pypirc$|\.kube[\\/]config|\.docker[\\/]config\.json|\.gnupg[\\/]|shadow$|credentials\.json$)/i;

export interface ScoreComponent {
  rule: string;
  contribution: number;
}

interface Hit extends ScoreComponent {
  violation: string | null;
  /** Deterministic evidence (an explicit policy entry) rather than a heuristic. */
  certain: boolean;
  explanation: string;
  flag?: string;
}

export interface GraphScore {
  action: string;
  components: ScoreComponent[];
  /** Raw sum of the contributions, before clamping. */
  ruleScore: number;
  score: number;
  riskLevel: RiskLevel;
  confidence: number;
  violations: string[];
  complianceRefs: string[];
  mitigations: string[];
  behavioralFlags: string[];
  reasoning: string;
  facts: Fact[];
}

export const clampScore = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

export function riskLevelOf(score: number): RiskLevel {
  if (score <= 0) return 'none';
  if (score < 25) return 'low';
  if (score < 50) return 'medium';
  if (score < 75) return 'high';
  return 'critical';
}

const mentions = (haystack: string[], needle: string) => {
  const lower = needle.toLowerCase();
  return haystack.some((h) => h.toLowerCase().includes(lower));
};

function sensitiveHits(event: ScoredEvent, action: Action, policy: CompiledPolicy): Hit[] {
  const surface = [action.scope ?? '', ...event.arguments];
  const hits: Hit[] = [];
  for (const field of policy.document.sensitive_fields) {
    if (mentions(surface, field)) {
      hits.push({
        rule: `sensitive_field:${field}`,
        contribution: CONTRIBUTIONS.sensitive_field,
        violation: 'sensitive_data_access',
        certain: false,
        explanation: `touches sensitive field "${field}"`,
      });
    }
  }
  for (const label of policy.document.sensitive_classifications) {
    if (mentions(surface, label)) {
      hits.push({
        rule: `sensitive_classification:${label}`,
        contribution: CONTRIBUTIONS.sensitive_classification,
        violation: 'sensitive_classification_access',
        certain: false,
        explanation: `touches data classified "${label}"`,
      });
    }
  }
  if (action.domain === 'file' && action.scope && SENSITIVE_PATH.test(action.scope)) {
    hits.push({
      rule: 'builtin.sensitive_path',
      contribution: CONTRIBUTIONS.sensitive_path,
      violation: 'sensitive_data_access',
      certain: false,
      explanation: `${action.verb}s a credential or key file`,
    });
  }
  return hits;
}

/** The graph facts of an event under a policy: what later events of its session tree may be judged by. */
function factsFrom(event: ScoredEvent, action: Action, sensitive: readonly Hit[]): Fact[] {
  const facts: Fact[] = [];
  if (action.verb === 'read' && sensitive.length > 0) facts.push('sensitive_read');
  if (isOutboundConnect(action)) facts.push('outbound_connect');
  if (action.verb === 'delete') facts.push('delete');
  if (changesPrivilege(event, action)) facts.push('privilege_change');
  return facts;
}

/**
 * What an event is under a policy, before its session graph is known: its action, its graph facts
 * and the hits of the rules that read the event alone. The worker needs the facts for every event
 * before it can load the graph, and the rest to score it: assessed once, used for both.
 */
export interface Assessment {
  action: Action;
  facts: Fact[];
  /** Policy hits, then sensitive-data hits, in the order scoreEvent lists components. */
  hits: readonly Hit[];
}

export function assess(event: ScoredEvent, policy: CompiledPolicy): Assessment {
  const action = actionOf(event);
  const sensitive = sensitiveHits(event, action, policy);
  return { action, facts: factsFrom(event, action, sensitive), hits: [...policyHits(action, policy), ...sensitive] };
}

export function factsOf(event: ScoredEvent, policy: CompiledPolicy): Fact[] {
  const action = actionOf(event);
  return factsFrom(event, action, action.verb === 'read' ? sensitiveHits(event, action, policy) : []);
}

function policyHits(action: Action, policy: CompiledPolicy): Hit[] {
  const doc = policy.document;
  const hits: Hit[] = [];
  for (const blocked of doc.blocked_actions) {
    if (matchesPattern(blocked, action.text)) {
      hits.push({
        rule: `blocked_action:${blocked}`,
        contribution: CONTRIBUTIONS.blocked_action,
        violation: 'blocked_action',
        certain: true,
        explanation: `is the blocked action ${blocked}`,
      });
    }
  }
  for (const pattern of doc.blocked_action_patterns) {
    if (matchesPattern(pattern, action.text)) {
      hits.push({
        rule: `blocked_pattern:${pattern}`,
        contribution: CONTRIBUTIONS.blocked_pattern,
        violation: 'blocked_action_pattern',
        certain: true,
        explanation: `matches the blocked pattern ${pattern}`,
      });
    }
  }
  // Blocked wins: an allowed pattern that also matches is listed, but lowers nothing.
  const blocked = hits.length > 0;
  for (const pattern of doc.allowed_action_patterns) {
    if (matchesPattern(pattern, action.text)) {
      hits.push({
        rule: `allowed_pattern:${pattern}`,
        contribution: blocked ? 0 : CONTRIBUTIONS.allowed_pattern,
        violation: null,
        certain: true,
        explanation: blocked
          ? `matches the allowed pattern ${pattern}, overridden by the blocked rule`
          : `matches the allowed pattern ${pattern}`,
      });
    }
  }
  if (action.domain === 'mcp' && action.scope && doc.allowed_tools.length > 0) {
    const tool = action.scope.slice(action.scope.indexOf('.') + 1);
    if (!doc.allowed_tools.includes(action.scope) && !doc.allowed_tools.includes(tool)) {
      hits.push({
        rule: `unlisted_tool:${action.scope}`,
        contribution: CONTRIBUTIONS.unlisted_tool,
        violation: 'unlisted_tool',
        certain: false,
        explanation: `calls MCP tool ${action.scope}, which is not in allowed_tools`,
      });
    }
  }
  return hits;
}

function customHits(input: ConditionInput, policy: CompiledPolicy): Hit[] {
  const hits: Hit[] = [];
  for (const [id, condition] of policy.conditions) {
    // A condition that cannot be evaluated throws: the score is then `failed`, never silently lower.
    if (!condition(input)) continue;
    const rule = policy.document.custom_rules[id];
    hits.push({
      rule: `custom:${id}`,
      contribution: rule.score_impact,
      violation: rule.score_impact > 0 ? 'custom_rule_violation' : null,
      certain: true,
      explanation: `matches custom rule ${id}${rule.description ? ` (${rule.description})` : ''}`,
    });
  }
  return hits;
}

function confidenceOf(action: Action, hits: Hit[]): number {
  if (action.scope === null) return CONFIDENCE.unmapped;
  if (hits.some((h) => h.certain && h.contribution > 0)) return CONFIDENCE.certain;
  if (hits.some((h) => !h.certain && h.contribution > 0)) return CONFIDENCE.heuristic;
  return CONFIDENCE.clean;
}

const signed = (n: number) => (n >= 0 ? `+${n}` : String(n));

function reasoningOf(action: Action, hits: Hit[], score: number, level: RiskLevel, confidence: number): string {
  if (hits.length === 0) {
    return `${action.text}: no rule matched, score 0 (none); confidence ${confidence}.`;
  }
  const parts = hits.map((h) => `${h.explanation} (${signed(h.contribution)})`);
  return `${action.text} ${parts.join('; ')}. Score ${score} (${level}) from ${hits.length} rule hit(s); confidence ${confidence}.`;
}

/**
 * Scores one event: every rule is evaluated (never first match) and each hit is a component.
 * `history` is the session tree's graph (see graphHits); `assessment` is assess(event, policy).
 */
export function scoreEvent(
  event: ScoredEvent,
  policy: CompiledPolicy,
  history: readonly GraphNode[],
  { action, facts, hits: eventHits }: Assessment = assess(event, policy),
): GraphScore {
  const graph = graphHits(event, action, facts, history);
  const hits: Hit[] = [...eventHits];
  for (const g of graph) {
    hits.push({
      rule: g.rule,
      contribution: CONTRIBUTIONS[g.rule as keyof typeof CONTRIBUTIONS],
      violation: GRAPH_VIOLATIONS[g.rule],
      certain: false,
      explanation: `raises the session-graph flag ${g.flag}`,
      flag: g.flag,
    });
  }
  if (event.decision === 'block') {
    hits.push({
      rule: 'daemon.would_block',
      contribution: CONTRIBUTIONS.daemon_block,
      violation: 'scope_violation',
      certain: true,
      explanation: 'was judged out of scope by the daemon (would block)',
    });
  }
  const input: ConditionInput = {
    action: action.text,
    domain: action.domain,
    scope: action.scope ?? '',
    verb: action.verb,
    action_type: event.actionType,
    tool: event.toolName ?? '',
    arguments: event.arguments,
    decision: event.decision,
    session_id: event.sessionId ?? '',
    flags: graph.map((g) => g.flag),
  };
  hits.push(...customHits(input, policy));

  const ruleScore = hits.reduce((sum, h) => sum + h.contribution, 0);
  const score = clampScore(ruleScore);
  const riskLevel = riskLevelOf(score);
  const confidence = confidenceOf(action, hits);
  const violations = [...new Set(hits.flatMap((h) => (h.violation ? [h.violation] : [])))];
  return {
    action: action.text,
    components: hits.map(({ rule, contribution }) => ({ rule, contribution })),
    ruleScore,
    score,
    riskLevel,
    confidence,
    violations,
    complianceRefs: complianceRefs(violations),
    mitigations: mitigationsFor(violations),
    behavioralFlags: [...new Set(graph.map((g) => g.flag))],
    reasoning: reasoningOf(action, hits, score, riskLevel, confidence),
    facts,
  };
}
