import { scoreEvent } from './engine';
import { justificationReport, justify } from './justification';
import { NO_POLICY } from './policy';

describe('GET /justification answers the documented report', () => {
  it.each([
    ['with violations', 'NETWORK_CONNECT' as const, ['paste.example.com'], 4],
    ['without one', 'FILE_READ' as const, ['README.md'], 0],
  ])('%s', (_, actionType, args, articles) => {
    const graph = scoreEvent(
      {
        id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
        orgId: '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b',
        sessionId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
        actionType,
        toolName: null,
        arguments: args,
        decision: 'allow',
        timestamp: '2026-11-01T12:00:00.000Z',
        receivedAt: '2026-11-01T12:00:00.000Z',
      },
      NO_POLICY,
      [
        {
          eventId: 'earlier',
          sessionId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
          at: Date.parse('2026-11-01T11:59:00Z'),
          facts: ['sensitive_read'],
        },
      ],
    );
    const report = justify({
      event_id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
      score: graph.score,
      risk_level: graph.riskLevel,
      violations: graph.violations,
      score_components: graph.components,
      rule_score: graph.ruleScore,
      graph_score: graph.score,
      llm_score: null,
      score_decomposition: { graph_weight: 1, llm_weight: 0 },
      mitigations: graph.mitigations,
    });
    expect(report.violation_details).toHaveLength(articles);
    // parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
    expect(justificationReport.parse(report)).toEqual(report);
  });
});
