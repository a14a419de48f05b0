import { EVENT_SCORED_TYPE, EventRecordedV1, EventScoredV1, TOPICS, toWire } from '@agentwatch/contracts';
import { EventPublisher, ProjectionBatch } from '@agentwatch/kafka';
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ScoredEvent } from '../domain/action';
import { blend, fingerprintOf, wantsLlm } from '../domain/blend';
import { ConditionError } from '../domain/condition';
import { assess, CONFIDENCE, SCORER_VERSION, scoreEvent } from '../domain/engine';
import { LlmRequest, LlmScorer } from '../llm/llm-scorer';
import { PolicyCache } from '../policies/policy-store';
import { insertScores, ScoreRow } from './score-rows';
import { addGraphNodes, loadTreeHistory, treeKey } from './session-graph';

const toScoredEvent = (e: EventRecordedV1): ScoredEvent => ({
  id: e.id,
  orgId: e.org_id,
  sessionId: e.session_id,
  actionType: e.action_type,
  toolName: e.tool_name,
  arguments: e.arguments,
  decision: e.decision,
  timestamp: e.timestamp,
  receivedAt: e.received_at,
});

/**
 * The scoring worker's projection of `ingest.events.v1`: scores a batch against each organization's
 * current policy and session graph, writes the scores in the batch's transaction (exactly once) and
 * produces them on `scoring.scores.v1` (at least once: a failed commit repeats the send).
 * Shadow mode: nothing here changes an event's decision.
 */
@Controller()
export class ScoreEventsProjection {
  private readonly policies = new PolicyCache();

  constructor(
    private readonly publisher: EventPublisher,
    private readonly llm: LlmScorer,
  ) {}

  @EventPattern('scores')
  async apply({ tx, records }: ProjectionBatch<EventRecordedV1>): Promise<void> {
    // Each timestamp parsed once, not in every comparison (n log n parses were 2 % of the worker).
    const events = records
      .map((r) => ({ event: toScoredEvent(r.payload), at: Date.parse(r.payload.timestamp) }))
      .sort((a, b) => a.at - b.at || a.event.id.localeCompare(b.event.id))
      .map(({ event }) => event);
    const inEffect = await this.policies.inEffect(tx, events);
    const assessed = events.map((event) => {
      const policy = inEffect(event.orgId, event.receivedAt);
      return { event, policy, ...assess(event, policy) };
    });
    await addGraphNodes(tx, assessed);
    const history = await loadTreeHistory(tx, events);
    const scoredAt = new Date().toISOString();

    const rows: ScoreRow[] = [];
    const llmRequests: LlmRequest[] = [];
    for (const assessment of assessed) {
      const { event, policy } = assessment;
      const nodes = event.sessionId ? (history.get(treeKey(event.orgId, event.sessionId)) ?? []) : [];
      try {
        const graph = scoreEvent(event, policy, nodes, assessment);
        const fingerprint = fingerprintOf(event, graph, policy.version, SCORER_VERSION);
        rows.push({ event, graph, fingerprint, policyVersion: policy.version, scoredAt, failure: null });
        if (wantsLlm(graph)) llmRequests.push({ orgId: event.orgId, fingerprint, event, graph });
      } catch (error) {
        if (!(error instanceof ConditionError)) throw error;
        rows.push({
          event,
          graph: null,
          fingerprint: '',
          policyVersion: policy.version,
          scoredAt,
          failure: `a custom rule could not be evaluated: ${error.message}`,
        });
      }
    }

    const answers = await this.llm.scoreAll(tx, llmRequests);
    for (const row of rows) {
      if (!row.graph) continue;
      const answer = answers.get(`${row.event.orgId}/${row.fingerprint}`) ?? null;
      const unmapped = row.graph.confidence <= CONFIDENCE.unmapped;
      row.final = blend(row.graph, answer?.score ?? null, unmapped, answer !== null);
      row.cacheHit = answer?.cacheHit ?? false;
    }
    await insertScores(tx, rows);
    // One call: the publisher bounds request sizes and the topic takes 16 MiB record batches.
    await this.publisher.publish(
      TOPICS.scoringScores.name,
      rows.map((row) => {
        const payload: EventScoredV1 = {
          event_id: row.event.id,
          org_id: row.event.orgId,
          session_id: row.event.sessionId,
          status: row.failure ? 'failed' : 'scored',
          score: row.final?.score ?? null,
          risk_level: row.final?.riskLevel ?? null,
          failure_reason: row.failure,
          scorer_version: SCORER_VERSION,
          policy_version: row.policyVersion,
          fingerprint: row.fingerprint,
          scored_at: row.scoredAt,
        };
        return toWire({
          id: row.event.id,
          type: EVENT_SCORED_TYPE,
          orgId: row.event.orgId,
          time: row.scoredAt,
          key: row.event.sessionId ?? row.event.id,
          payload,
        });
      }),
    );
  }
}
