import { hash } from 'node:crypto';
import { RiskLevel } from '@agentwatch/contracts';
import { ScoredEvent } from './action';
import { clampScore, GraphScore, LLM_CONFIDENCE_THRESHOLD, riskLevelOf } from './engine';

/** Weights when both engines scored: the rules stay the larger part, the model moves the score. */
export const HYBRID_WEIGHTS = { graph: 0.6, llm: 0.4 } as const;

export interface ScoreDecomposition {
  graph_weight: number;
  llm_weight: number;
  gnn_weight: number;
  final: number;
}

export interface FinalScore {
  score: number;
  riskLevel: RiskLevel;
  scoringSource: 'graph' | 'llm' | 'hybrid';
  llmScore: number | null;
  llmFallback: boolean;
  decomposition: ScoreDecomposition;
}

export const wantsLlm = (graph: Pick<GraphScore, 'confidence'>) => graph.confidence <= LLM_CONFIDENCE_THRESHOLD;

/**
 * Combines the rule engine with the model's answer. `llm` is null when the model was not asked,
 * is not configured, or did not answer in time: the graph score then stands. An event the rules
 * could not even map (no scope) is the model's alone.
 *
 * `called`: the model was called for this event because graph confidence was low, whether or not
 * it answered (an earlier call's cached answer counts). That, in spec 001's words, is what
 * `llm_fallback` reports; a failed or timed-out call is still a fallback that was taken.
 */
export function blend(graph: GraphScore, llm: number | null, unmapped: boolean, called = llm !== null): FinalScore {
  if (llm === null) {
    return {
      score: graph.score,
      riskLevel: graph.riskLevel,
      scoringSource: 'graph',
      llmScore: null,
      llmFallback: called,
      decomposition: { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: graph.score },
    };
  }
  const weights = unmapped ? { graph: 0, llm: 1 } : HYBRID_WEIGHTS;
  const score = clampScore(weights.graph * graph.score + weights.llm * llm);
  return {
    score,
    riskLevel: riskLevelOf(score),
    scoringSource: unmapped ? 'llm' : 'hybrid',
    llmScore: llm,
    llmFallback: true,
    decomposition: { graph_weight: weights.graph, llm_weight: weights.llm, gnn_weight: 0, final: score },
  };
}

/** The same act under the same policy and graph context has the same fingerprint, whatever its id or time. */
export function fingerprintOf(event: ScoredEvent, graph: GraphScore, policyVersion: number, scorerVersion: string) {
  const input = {
    scorerVersion,
    policyVersion,
    action: graph.action,
    actionType: event.actionType,
    tool: event.toolName,
    arguments: event.arguments,
    decision: event.decision,
    flags: graph.behavioralFlags,
    components: graph.components,
  };
  // One-shot hash: no Hash object per event (see docs/adr/0006-postgres-cost-per-scored-event.md).
  return hash('sha256', JSON.stringify(input));
}
