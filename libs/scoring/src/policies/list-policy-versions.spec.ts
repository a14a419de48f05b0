import { TenantData } from '@agentwatch/cells';
import { EMPTY_POLICY } from '../domain/policy';
import { ListPolicyVersions, ListPolicyVersionsHandler, policyVersionList } from './list-policy-versions';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';

/** A customer's database whose history table holds these rows (newest first, as the query orders them). */
const holding = (rows: unknown[]) =>
  ({
    run: (_orgId: string, work: (q: unknown) => unknown) => work({ query: async () => rows }),
  }) as unknown as TenantData;

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented.
describe('GET /policies/{customer_id}/versions answers the documented list', () => {
  it('with versions saved by an older contract (fields filled) and with rules', async () => {
    const rows = [
      {
        version: 2,
        policies: {
          ...EMPTY_POLICY,
          blocked_action_patterns: ['process:curl*:exec'],
          custom_rules: { r1: { condition: 'tool == "git"', score_impact: 20, description: 'git use' } },
        },
        changed_at: new Date('2026-10-02T08:00:00.000Z'),
      },
      { version: 1, policies: { allowed_tools: ['git'] }, changed_at: new Date('2026-10-01T08:00:00.000Z') },
    ];
    const answer = await new ListPolicyVersionsHandler(holding(rows)).execute(new ListPolicyVersions(ORG, ORG));
    expect(answer.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(policyVersionList.parse(answer)).toEqual(answer);
  });

  it('before the first save', async () => {
    const answer = await new ListPolicyVersionsHandler(holding([])).execute(new ListPolicyVersions(ORG, ORG));
    expect(policyVersionList.parse(answer)).toEqual({ versions: [] });
  });
});
