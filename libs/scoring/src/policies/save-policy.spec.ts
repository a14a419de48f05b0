import { EMPTY_POLICY } from '../domain/policy';
import { policyResponse, respond } from './save-policy';

describe('POST, PUT and GET /policies/{customer_id} answer the documented wrapper', () => {
  it('with the defaults and with rules', () => {
    const custom = {
      ...EMPTY_POLICY,
      blocked_action_patterns: ['process:curl*:exec'],
      custom_rules: { r1: { condition: 'tool == "git"', score_impact: 20, description: 'git use' } },
    };
    for (const policies of [EMPTY_POLICY, custom]) {
      const answer = respond({
        orgId: '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b',
        version: 3,
        policies,
        updatedAt: new Date('2026-10-01T08:00:00.000Z'),
      });
      // parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
      expect(policyResponse.parse(answer)).toEqual(answer);
    }
  });
});
