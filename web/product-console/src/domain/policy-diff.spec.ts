/// <reference types="jest" />
import { PolicyDocument } from './policy';
import { diffPolicies } from './policy-diff';

const empty: PolicyDocument = {
  sensitive_fields: [],
  allowed_tools: [],
  blocked_actions: [],
  allowed_action_patterns: [],
  blocked_action_patterns: [],
  sensitive_classifications: [],
  custom_rules: {},
};

describe('diffPolicies', () => {
  it('shows everything of the first version as added', () => {
    expect(diffPolicies(null, { ...empty, sensitive_fields: ['ssn'] })).toEqual([
      { field: 'sensitive_fields', added: ['ssn'], removed: [], changed: [] },
    ]);
  });

  it('lists added and removed values per field, and only changed fields', () => {
    const before = { ...empty, blocked_action_patterns: ['file:*:delete', 'network:*:connect'], allowed_tools: ['x'] };
    const after = {
      ...empty,
      blocked_action_patterns: ['network:*:connect', 'process:curl:exec'],
      allowed_tools: ['x'],
    };
    expect(diffPolicies(before, after)).toEqual([
      { field: 'blocked_action_patterns', added: ['process:curl:exec'], removed: ['file:*:delete'], changed: [] },
    ]);
  });

  it('is empty for identical versions', () => {
    expect(diffPolicies(empty, { ...empty })).toEqual([]);
  });

  it('compares custom rules by id: added, removed and changed', () => {
    const rule = { condition: 'tool == "git"', score_impact: 40, description: 'git' };
    const before = { ...empty, custom_rules: { keep: rule, gone: rule, edit: rule } };
    const after = { ...empty, custom_rules: { keep: rule, edit: { ...rule, score_impact: -5 }, fresh: rule } };
    expect(diffPolicies(before, after)).toEqual([
      {
        field: 'custom_rules',
        added: ['edit: tool == "git" (-5) git', 'fresh: tool == "git" (+40) git'],
        removed: ['edit: tool == "git" (+40) git', 'gone: tool == "git" (+40) git'],
        changed: ['edit'],
      },
    ]);
  });

  it('treats a field missing from an old version as empty', () => {
    const before = { sensitive_fields: ['ssn'] };
    expect(diffPolicies(before, { ...empty })).toEqual([
      { field: 'sensitive_fields', added: [], removed: ['ssn'], changed: [] },
    ]);
  });
});
