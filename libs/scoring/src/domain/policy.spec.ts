import { parsePolicy } from './policy';

describe('a policy body holds only what its jsonb column stores as sent', () => {
  it.each([
    ['a NUL in a sensitive field', { sensitive_fields: ['ssn\u0000'] }, 'sensitive_fields.0', /NUL/],
    [
      'a lone surrogate in a pattern',
      { blocked_action_patterns: ['file:\ud800:read'] },
      'blocked_action_patterns.0',
      /lone surrogate/,
    ],
    [
      'a NUL in a rule description',
      { custom_rules: { r1: { condition: 'true', score_impact: 5, description: 'x\u0000' } } },
      'custom_rules.r1.description',
      /NUL/,
    ],
  ])('refuses %s, naming the field', (_, body, path, message) => {
    const parsed = parsePolicy(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues).toContainEqual({ path, message: expect.stringMatching(message) });
  });

  it('keeps text from every plane, bidirectional marks included', () => {
    expect(parsePolicy({ sensitive_fields: ['пароль', '🙂', '\u202eevil'] })).toMatchObject({ ok: true });
  });
});
