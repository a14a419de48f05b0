import { checkSignIn } from './sign-in';
import { checkTokenRequest, refusalOf, TokenRequest } from './token-request';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const binding = {
  clientId: 'agentwatch-console',
  redirectUri: 'http://127.0.0.1:8090/callback',
  codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
};
const form = {
  grant_type: 'authorization_code',
  client_id: 'agentwatch-console',
  code: 'c1',
  code_verifier: VERIFIER,
  redirect_uri: binding.redirectUri,
};

describe('token request', () => {
  it('reads a well-formed authorization_code request', () => {
    expect(checkTokenRequest(form, 'agentwatch-console')).toEqual({
      kind: 'valid',
      request: { clientId: 'agentwatch-console', code: 'c1', verifier: VERIFIER, redirectUri: binding.redirectUri },
    });
  });

  it.each([
    ['grant_type', 'refresh_token', 400, 'unsupported_grant_type'],
    ['grant_type', undefined, 400, 'invalid_request'],
    ['client_id', 'other', 401, 'invalid_client'],
    ['client_id', undefined, 401, 'invalid_client'],
    ['code', undefined, 400, 'invalid_request'],
    ['code', ['c1', 'c2'], 400, 'invalid_request'],
    ['code_verifier', undefined, 400, 'invalid_request'],
    ['redirect_uri', '', 400, 'invalid_request'],
  ])('%s=%j → %i %s', (name, value, status, error) => {
    expect(checkTokenRequest({ ...form, [name]: value }, 'agentwatch-console')).toMatchObject({
      kind: 'error',
      status,
      error: { error },
    });
  });

  const request: TokenRequest = {
    clientId: binding.clientId,
    code: 'c1',
    verifier: VERIFIER,
    redirectUri: binding.redirectUri,
  };

  it('redeems a code with its verifier and redirect URI', () => {
    expect(refusalOf(binding, request)).toBeNull();
  });

  it.each([
    ['an unknown, used or expired code', null, request],
    ['another verifier', binding, { ...request, verifier: 'a'.repeat(43) }],
    ['the challenge as verifier (plain)', binding, { ...request, verifier: binding.codeChallenge }],
    ['another redirect URI', binding, { ...request, redirectUri: 'http://127.0.0.1:8090/other' }],
    ['another client', { ...binding, clientId: 'x' }, request],
  ])('refuses %s with invalid_grant', (_, bound, attempt) => {
    expect(refusalOf(bound, attempt)).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('sign-in form', () => {
  const choices = { users: ['analyst@example.com'], choice: { name: 'role', values: ['operator', 'viewer'] } };

  it('takes the picked user, or the typed email over it', () => {
    expect(checkSignIn({ user: 'analyst@example.com', role: 'viewer' }, choices)).toEqual({
      kind: 'valid',
      user: { email: 'analyst@example.com', choice: 'viewer' },
    });
    expect(checkSignIn({ user: 'analyst@example.com', email: ' Bob@Example.com ', role: 'operator' }, choices)).toEqual(
      {
        kind: 'valid',
        user: { email: 'bob@example.com', choice: 'operator' },
      },
    );
  });

  it.each([
    [{ role: 'operator' }, 'Pick a user'],
    [{ email: 'not an email', role: 'operator' }, 'Email:'],
    [{ user: 'mallory@example.com', role: 'operator' }, 'Email:'],
    [{ user: 'analyst@example.com', role: 'admin' }, 'role'],
    [{ user: 'analyst@example.com' }, 'role'],
    [{ user: 'analyst@example.com', role: ['viewer', 'operator'] }, 'repeated'],
  ])('refuses %j', (params, message) => {
    expect(checkSignIn(params, choices)).toEqual({ kind: 'invalid', message: expect.stringContaining(message) });
  });
});
