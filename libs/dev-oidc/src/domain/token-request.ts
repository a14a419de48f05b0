import { OAuthError, oauthError, Params, single } from './params';
import { verifierMatches } from './pkce';

export interface TokenRequest {
  clientId: string;
  code: string;
  verifier: string;
  redirectUri: string;
}

/** What a code was bound to when it was issued. */
export interface CodeBinding {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
}

export type TokenRequestCheck =
  | { kind: 'valid'; request: TokenRequest }
  // RFC 6749 §5.2: 401 only for client authentication; everything else is 400.
  | { kind: 'error'; status: 400 | 401; error: OAuthError };

const NAMES = ['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri'] as const;

/** Checks the form of a token request (RFC 6749 §4.1.3 with RFC 7636 §4.5) for the one public client. */
export function checkTokenRequest(params: Params, clientId: string): TokenRequestCheck {
  const error = (status: 400 | 401, code: string, description: string): TokenRequestCheck => ({
    kind: 'error',
    status,
    error: oauthError(code, description),
  });
  const repeated = NAMES.find((name) => single(params, name).repeated);
  if (repeated) return error(400, 'invalid_request', `${repeated} is repeated`);
  const value = (name: (typeof NAMES)[number]) => single(params, name).value;
  const grantType = value('grant_type');
  if (grantType === undefined) return error(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'authorization_code') {
    return error(400, 'unsupported_grant_type', 'only grant_type=authorization_code');
  }
  if (value('client_id') !== clientId) {
    return error(401, 'invalid_client', `unknown client_id: this provider serves the client ${clientId} only`);
  }
  const code = value('code');
  const verifier = value('code_verifier');
  const redirectUri = value('redirect_uri');
  if (code === undefined) return error(400, 'invalid_request', 'code is required');
  if (verifier === undefined) return error(400, 'invalid_request', 'code_verifier is required (PKCE)');
  if (redirectUri === undefined) return error(400, 'invalid_request', 'redirect_uri is required');
  return { kind: 'valid', request: { clientId, code, verifier, redirectUri } };
}

/**
 * Whether a token request may redeem the code it names: null when it may. A code that is unknown,
 * already used or expired (`binding` null) and every mismatch are the same invalid_grant.
 */
export function refusalOf(binding: CodeBinding | null, request: TokenRequest): OAuthError | null {
  if (binding === null) return oauthError('invalid_grant', 'the code is unknown, already used or expired');
  if (binding.clientId !== request.clientId)
    return oauthError('invalid_grant', 'the code was issued to another client');
  if (binding.redirectUri !== request.redirectUri) {
    return oauthError('invalid_grant', 'redirect_uri differs from the authorization request’s');
  }
  if (!verifierMatches(request.verifier, binding.codeChallenge)) {
    return oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
  }
  return null;
}
