import { OAuthError, oauthError, onOrigin, Params, single } from './params';
import { isWellFormedChallenge } from './pkce';

export const SUPPORTED_SCOPES = ['openid', 'profile', 'email'] as const;

/** The one public client a console's provider serves, and the origin the browser reached the console at. */
export interface Client {
  clientId: string;
  origin: string;
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  nonce?: string;
  /** The requested scopes this provider knows, space-separated, in the order asked. */
  scope: string;
}

export type AuthorizationCheck =
  | { kind: 'valid'; request: AuthorizationRequest }
  // RFC 6749 §4.1.2.1: with an unknown client or redirect URI the provider must not redirect; it tells the user.
  | { kind: 'refused'; message: string }
  | { kind: 'redirect'; redirectUri: string; error: OAuthError; state?: string };

const MAX_STATE = 2048;
const MAX_NONCE = 512;

/** Checks an authorization request (the GET that shows the sign-in page, and the POST of that page). */
export function checkAuthorizationRequest(params: Params, client: Client): AuthorizationCheck {
  const clientId = single(params, 'client_id');
  if (clientId.repeated || clientId.value !== client.clientId) {
    return { kind: 'refused', message: `unknown client_id: this provider serves the client ${client.clientId} only` };
  }
  const redirect = single(params, 'redirect_uri');
  if (redirect.repeated || redirect.value === undefined) {
    return { kind: 'refused', message: 'redirect_uri is required (once)' };
  }
  if (!onOrigin(redirect.value, client.origin) || redirect.value.includes('#')) {
    return {
      kind: 'refused',
      message: `redirect_uri must be a URL of this console (${client.origin}), without a fragment`,
    };
  }
  const redirectUri = redirect.value;
  const state = single(params, 'state');
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    redirectUri,
    error: oauthError(error, description),
    state: state.repeated || (state.value?.length ?? 0) > MAX_STATE ? undefined : state.value,
  });

  for (const name of [
    'state',
    'response_type',
    'code_challenge',
    'code_challenge_method',
    'scope',
    'nonce',
    'prompt',
  ]) {
    if (single(params, name).repeated) return fail('invalid_request', `${name} is repeated`);
  }
  if (state.value === undefined) return fail('invalid_request', 'state is required');
  if (state.value.length > MAX_STATE) return fail('invalid_request', `state is longer than ${MAX_STATE} characters`);
  if (single(params, 'response_type').value !== 'code') {
    return fail('unsupported_response_type', 'only response_type=code (authorization code with PKCE)');
  }
  const challenge = single(params, 'code_challenge').value;
  if (challenge === undefined) return fail('invalid_request', 'code_challenge is required (PKCE)');
  // Without a method RFC 7636 means "plain", which is refused like an explicit plain.
  if (single(params, 'code_challenge_method').value !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256');
  }
  if (!isWellFormedChallenge(challenge)) {
    return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
  }
  const requested = (single(params, 'scope').value ?? '').split(' ').filter(Boolean);
  if (!requested.includes('openid')) return fail('invalid_scope', 'scope must include openid');
  const nonce = single(params, 'nonce').value;
  if (nonce !== undefined && nonce.length > MAX_NONCE) {
    return fail('invalid_request', `nonce is longer than ${MAX_NONCE} characters`);
  }
  // There is no session to reuse: every authorization shows the sign-in page.
  if (single(params, 'prompt').value === 'none') return fail('login_required', 'this provider always asks');
  const known = (scope: string) => (SUPPORTED_SCOPES as readonly string[]).includes(scope);
  return {
    kind: 'valid',
    request: {
      clientId: client.clientId,
      redirectUri,
      codeChallenge: challenge,
      state: state.value,
      nonce,
      scope: [...new Set(requested.filter(known))].join(' '),
    },
  };
}

/** The redirect back to the client: the code or the error, with the state (RFC 6749 §4.1.2). */
export function redirectBack(redirectUri: string, answer: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
