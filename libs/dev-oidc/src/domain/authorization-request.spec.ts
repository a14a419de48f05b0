import { checkAuthorizationRequest, redirectBack } from './authorization-request';
import { endSessionTarget } from './end-session';
import { Params } from './params';

const client = { clientId: 'agentwatch-console', origin: 'http://127.0.0.1:8090' };
const valid: Params = {
  client_id: 'agentwatch-console',
  redirect_uri: 'http://127.0.0.1:8090/callback',
  response_type: 'code',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 's1',
  scope: 'openid profile email offline_access',
};

describe('authorization request', () => {
  it('accepts the code flow with S256, keeping the known scopes', () => {
    expect(checkAuthorizationRequest({ ...valid, nonce: 'n1' }, client)).toEqual({
      kind: 'valid',
      request: {
        clientId: 'agentwatch-console',
        redirectUri: 'http://127.0.0.1:8090/callback',
        codeChallenge: valid.code_challenge,
        state: 's1',
        nonce: 'n1',
        scope: 'openid profile email',
      },
    });
  });

  it.each([
    ['client_id', 'someone-else', 'unknown client_id'],
    ['client_id', ['agentwatch-console', 'agentwatch-console'], 'unknown client_id'],
    ['redirect_uri', undefined, 'redirect_uri is required'],
    ['redirect_uri', 'http://evil.example/callback', 'must be a URL of this console'],
    ['redirect_uri', 'http://127.0.0.1:8091/callback', 'must be a URL of this console'],
    ['redirect_uri', 'https://127.0.0.1:8090/callback', 'must be a URL of this console'],
    ['redirect_uri', 'http://user@127.0.0.1:8090/callback', 'must be a URL of this console'],
    ['redirect_uri', 'http://127.0.0.1:8090/callback#x', 'without a fragment'],
  ])('never redirects for %s=%j: shows why', (name, value, message) => {
    const answer = checkAuthorizationRequest({ ...valid, [name]: value }, client);
    expect(answer).toEqual({ kind: 'refused', message: expect.stringContaining(message) });
  });

  it.each([
    ['response_type', 'token', 'unsupported_response_type'],
    ['code_challenge', undefined, 'invalid_request'],
    ['code_challenge_method', 'plain', 'invalid_request'],
    ['code_challenge_method', undefined, 'invalid_request'],
    ['code_challenge', 'short', 'invalid_request'],
    ['scope', 'profile', 'invalid_scope'],
    ['nonce', ['a', 'b'], 'invalid_request'],
    ['prompt', 'none', 'login_required'],
  ])('redirects back with an error for %s=%j: %s, with the state', (name, value, error) => {
    const answer = checkAuthorizationRequest({ ...valid, [name]: value }, client);
    expect(answer).toMatchObject({ kind: 'redirect', redirectUri: valid.redirect_uri, error: { error }, state: 's1' });
  });

  it('requires a state, and leaves a repeated one out of the error redirect', () => {
    expect(checkAuthorizationRequest({ ...valid, state: undefined }, client)).toMatchObject({
      kind: 'redirect',
      error: { error: 'invalid_request', error_description: 'state is required' },
    });
    const repeated = checkAuthorizationRequest({ ...valid, state: ['a', 'b'] }, client);
    expect(repeated).toMatchObject({ kind: 'redirect', error: { error: 'invalid_request' }, state: undefined });
  });

  it('answers on the redirect URI, keeping its own query', () => {
    expect(redirectBack('http://h:1/callback?x=1', { code: 'c', state: 's', iss: undefined })).toBe(
      'http://h:1/callback?x=1&code=c&state=s',
    );
  });
});

describe('end-session target', () => {
  it('returns to a URL of this console with the state, anything else to its root', () => {
    const origin = 'http://127.0.0.1:8090';
    expect(endSessionTarget({ post_logout_redirect_uri: `${origin}/signed-out`, state: 'x' }, origin)).toBe(
      `${origin}/signed-out?state=x`,
    );
    expect(endSessionTarget({ post_logout_redirect_uri: 'https://evil.example/' }, origin)).toBe(`${origin}/`);
    expect(endSessionTarget({ post_logout_redirect_uri: '//evil.example/' }, origin)).toBe(`${origin}/`);
    expect(endSessionTarget({}, origin)).toBe(`${origin}/`);
  });
});
