import { AuthorizationCodes, CODE_TTL_MS, IssuedCode } from './authorization-codes';

const grant: IssuedCode = {
  clientId: 'c',
  redirectUri: 'http://h/callback',
  codeChallenge: 'x'.repeat(43),
  issuer: 'http://h/oidc',
  scope: 'openid',
  user: { email: 'a@example.com', choice: '' },
  authTime: 0,
};

describe('authorization codes', () => {
  let now = 1_000_000;
  let next = 0;
  const codes = new AuthorizationCodes(
    () => now,
    () => `code-${next++}`,
  );

  it('are redeemed once', () => {
    const code = codes.issue(grant);
    expect(codes.take(code)).toEqual(grant);
    expect(codes.take(code)).toBeNull();
  });

  it('expire after a minute', () => {
    const code = codes.issue(grant);
    now += CODE_TTL_MS;
    expect(codes.take(code)).toBeNull();
  });

  it('know no code they did not issue', () => {
    expect(codes.take('code-999')).toBeNull();
  });
});
