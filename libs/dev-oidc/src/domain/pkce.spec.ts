import { isWellFormedVerifier, s256Challenge, verifierMatches } from './pkce';

// RFC 7636 appendix B.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE (S256)', () => {
  it('hashes the RFC 7636 example verifier to its challenge', () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
    expect(verifierMatches(VERIFIER, CHALLENGE)).toBe(true);
  });

  it('refuses another verifier, the challenge itself as verifier (plain) and a malformed challenge', () => {
    expect(verifierMatches(`${VERIFIER.slice(0, -1)}Y`, CHALLENGE)).toBe(false);
    expect(verifierMatches(CHALLENGE, CHALLENGE)).toBe(false);
    expect(verifierMatches(VERIFIER, `${CHALLENGE}=`)).toBe(false);
    expect(verifierMatches(VERIFIER, CHALLENGE.slice(1))).toBe(false);
  });

  it.each([
    ['a'.repeat(42), false],
    ['a'.repeat(43), true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    [`${'a'.repeat(42)}+`, false],
    [`${'a'.repeat(40)}-._~`, true],
  ])('a verifier of %s is well formed: %s', (verifier, expected) => {
    expect(isWellFormedVerifier(verifier)).toBe(expected);
  });
});
