import { TenantData } from '@agentwatch/cells';
import { ListScores, ListScoresHandler, scoreList } from './list-scores';
import { readScoreDetail, ScoreRow, scoreDetail } from './score-detail';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const EVENT = '0192a3b4-c5d6-7e8f-9a0b-000000000001';

// A row as the worker's insertScores writes it, for a model-blended score.
const scoredRow: ScoreRow = {
  event_id: EVENT,
  status: 'scored',
  score: 57,
  risk_level: 'high',
  reasoning: 'network:paste.example.com:connect …',
  violations: ['data_exfiltration_risk'],
  scoring_source: 'hybrid',
  compliance_refs: ['EU_AI_Act:Art.15'],
  mitigations: ['Rotate credentials read earlier in the session'],
  score_components: [{ rule: 'graph.sensitive_read_then_connect', contribution: 40 }],
  behavioral_flags: ['sensitive_read_then_connect'],
  graph_score: 40,
  llm_score: 82,
  llm_fallback: true,
  score_decomposition: { graph_weight: 0.6, llm_weight: 0.4, gnn_weight: 0, final: 57 },
  confidence: 0.699999988079071,
  rule_score: 40,
  scorer_version: 'agentwatch-rules/1.0.0',
  policy_version: 2,
  fingerprint: 'a'.repeat(64),
  failure_reason: null,
  cache_hit: false,
  scored_at: new Date('2026-10-01T08:00:02.000Z'),
};

// What insertScores writes when a custom rule could not be evaluated.
const failedRow: ScoreRow = {
  ...scoredRow,
  status: 'failed',
  score: null,
  risk_level: null,
  reasoning: 'Scoring failed: custom rule r1: no such key',
  violations: [],
  scoring_source: 'graph',
  compliance_refs: [],
  mitigations: [],
  score_components: [],
  behavioral_flags: [],
  graph_score: null,
  llm_score: null,
  llm_fallback: false,
  score_decomposition: { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: null },
  confidence: 0,
  rule_score: null,
  failure_reason: 'custom rule r1: no such key',
};

/** Data whose queries answer these row sets, one per query in order. */
const answering = (...results: unknown[][]) => {
  const query = jest.fn();
  for (const rows of results) query.mockResolvedValueOnce(rows);
  return { run: (_orgId: string, work: (q: unknown) => unknown) => work({ query }) } as unknown as TenantData;
};

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('GET /scores/event/{event_id} answers the documented detail', () => {
  it.each([
    ['scored', answering([scoredRow])],
    ['failed', answering([failedRow])],
    ['pending', answering([], [{ '?column?': 1 }])],
  ])('%s', async (status, data) => {
    const detail = await readScoreDetail(data, ORG, EVENT);
    expect(detail.status).toBe(status);
    expect(scoreDetail.parse(detail)).toEqual(detail);
  });
});

describe('GET /scores/{customer_id} answers the documented page', () => {
  it('of scored events', async () => {
    const unblended = { ...scoredRow, score: 40, risk_level: 'medium' as const, llm_score: null, cache_hit: true };
    const page = await new ListScoresHandler(answering([{ total: 2 }], [scoredRow, unblended])).execute(
      new ListScores(ORG, ORG, { per_page: '2' }),
    );
    expect(page).toMatchObject({ page: 1, per_page: 2, total: 2 });
    expect(scoreList.parse(page)).toEqual(page);
  });
});
