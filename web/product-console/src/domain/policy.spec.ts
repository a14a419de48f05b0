/// <reference types="jest" />
import { documentOf, draftOf, issueTarget, PolicyDocument, RuleRow, resetFields, ruleRowErrors } from './policy';

const stored: PolicyDocument = {
  sensitive_fields: ['ssn'],
  allowed_tools: [],
  blocked_actions: ['file:/etc/shadow:read'],
  allowed_action_patterns: [],
  blocked_action_patterns: ['network:*:connect', 'file:*:delete'],
  sensitive_classifications: [],
  custom_rules: { force_push: { condition: 'tool == "git"', score_impact: 40, description: 'force push' } },
};

const key = (i: number) => `rule-${i}`;

describe('draftOf / documentOf', () => {
  it('round-trips a stored policy', () => {
    expect(documentOf(draftOf(stored, key))).toEqual(stored);
  });

  it('starts an empty draft when there is no policy yet, with all seven fields', () => {
    const document = documentOf(draftOf(null, key));
    expect(Object.keys(document).sort()).toEqual(
      [
        'allowed_action_patterns',
        'allowed_tools',
        'blocked_action_patterns',
        'blocked_actions',
        'custom_rules',
        'sensitive_classifications',
        'sensitive_fields',
      ].sort(),
    );
    expect(document.custom_rules).toEqual({});
  });

  it('does not share arrays with the stored policy', () => {
    const draft = draftOf(stored, key);
    draft.lists.sensitive_fields.push('dob');
    expect(stored.sensitive_fields).toEqual(['ssn']);
  });
});

describe('resetFields', () => {
  it('lists every empty field and what the save removes from the stored policy', () => {
    const draft = draftOf(stored, key);
    draft.lists.blocked_action_patterns = [];
    draft.rules = [];
    expect(resetFields(draft, stored)).toEqual([
      { field: 'allowed_tools', removes: 0 },
      { field: 'allowed_action_patterns', removes: 0 },
      { field: 'blocked_action_patterns', removes: 2 },
      { field: 'sensitive_classifications', removes: 0 },
      { field: 'custom_rules', removes: 1 },
    ]);
  });

  it('lists all seven fields for an empty draft of no policy', () => {
    expect(resetFields(draftOf(null, key), null)).toHaveLength(7);
  });
});

describe('ruleRowErrors', () => {
  const row = (over: Partial<RuleRow>): RuleRow => ({
    key: 'k',
    id: 'r1',
    condition: 'tool == "git"',
    score_impact: 10,
    description: '',
    ...over,
  });

  it('accepts a complete rule', () => {
    expect(ruleRowErrors([row({})]).size).toBe(0);
  });

  it('refuses a bad id, a duplicate id, a blank condition and an impact out of range', () => {
    expect(ruleRowErrors([row({ id: 'has space' })]).get('k')).toEqual({
      id: 'rule ids are 1-64 letters, digits, _ . or -',
    });
    const duplicates = ruleRowErrors([row({ key: 'a' }), row({ key: 'b' })]);
    expect(duplicates.get('b')).toEqual({ id: 'another rule has this id' });
    expect(ruleRowErrors([row({ condition: ' ' })]).get('k')).toEqual({ condition: 'a condition is required' });
    expect(ruleRowErrors([row({ score_impact: 101 })]).get('k')).toEqual({
      score_impact: 'an integer from -100 to 100',
    });
    expect(ruleRowErrors([row({ score_impact: 1.5 })]).get('k')?.score_impact).toBeDefined();
    expect(ruleRowErrors([row({ score_impact: '' })]).get('k')).toEqual({ score_impact: 'a score impact is required' });
  });
});

describe('issueTarget', () => {
  it('places list issues on their field', () => {
    expect(issueTarget('blocked_action_patterns.0')).toEqual({ field: 'blocked_action_patterns' });
  });

  it('places rule issues on the rule and its part, ids with dots included', () => {
    expect(issueTarget('custom_rules.r1.condition')).toEqual({
      field: 'custom_rules',
      ruleId: 'r1',
      part: 'condition',
    });
    expect(issueTarget('custom_rules.a.b.score_impact')).toEqual({
      field: 'custom_rules',
      ruleId: 'a.b',
      part: 'score_impact',
    });
    expect(issueTarget('custom_rules.bad id')).toEqual({ field: 'custom_rules', ruleId: 'bad id' });
  });

  it('knows no field for an unknown top-level key', () => {
    expect(issueTarget('extra')).toEqual({ field: null });
  });
});
