import { Injectable } from '@nestjs/common';
import { AuthorizationCodes } from './authorization-codes';
import { DevOidcOptions, TOKEN_TTL_SECONDS } from './dev-oidc.options';
import { DevSigningKey } from './dev-signing-key';
import { checkAuthorizationRequest, redirectBack, SUPPORTED_SCOPES } from './domain/authorization-request';
import { endSessionTarget } from './domain/end-session';
import { OAuthError, Params } from './domain/params';
import { checkSignIn } from './domain/sign-in';
import { checkTokenRequest, refusalOf } from './domain/token-request';
import { DEV_OIDC_PATH } from './request-origin';
import { refusalPage, signInPage } from './sign-in-page';

/** What a route answers; the controller only sends it. */
export type Answer =
  | { status: number; html: string }
  | { status: number; json: unknown }
  | { status: 302; location: string };

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
export const answerHeaders = (answer: Answer) => ('location' in answer ? {} : NO_STORE);

/** The development provider's logic: authorization code with PKCE for the console's one client. */
@Injectable()
export class DevIdentityProvider {
  constructor(
    private readonly options: DevOidcOptions,
    private readonly codes: AuthorizationCodes,
    private readonly key: DevSigningKey,
  ) {}

  discovery(issuer: string) {
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      end_session_endpoint: `${issuer}/end-session`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      id_token_signing_alg_values_supported: ['ES256'],
      subject_types_supported: ['public'],
      scopes_supported: [...SUPPORTED_SCOPES],
      claims_supported: ['sub', 'email', 'name', 'nonce', 'auth_time'],
    };
  }

  jwks() {
    const key = this.key.publicJwk();
    return { keys: key ? [key] : [] };
  }

  /** GET /oidc/authorize: the sign-in page, or why the request is refused. */
  signInPage(params: Params, origin: string): Answer {
    const checked = checkAuthorizationRequest(params, { clientId: this.options.clientId, origin });
    if (checked.kind === 'refused') return { status: 400, html: refusalPage(checked.message) };
    if (checked.kind === 'redirect') return errorRedirect(checked);
    return { status: 200, html: signInPage(this.options.form, checked.request) };
  }

  /** POST /oidc/authorize: the form's answer; a code bound to the request, back to the client. */
  signIn(params: Params, origin: string): Answer {
    const checked = checkAuthorizationRequest(params, { clientId: this.options.clientId, origin });
    if (checked.kind === 'refused') return { status: 400, html: refusalPage(checked.message) };
    if (checked.kind === 'redirect') return errorRedirect(checked);
    const { request } = checked;
    const form = this.options.form;
    const signedIn = checkSignIn(params, {
      users: form.users,
      choice: { name: form.choice.name, values: form.choice.options.map((o) => o.value) },
    });
    if (signedIn.kind === 'invalid') return { status: 400, html: signInPage(form, request, signedIn.message) };
    const code = this.codes.issue({
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      issuer: `${origin}${DEV_OIDC_PATH}`,
      scope: request.scope,
      nonce: request.nonce,
      user: signedIn.user,
      authTime: Math.floor(Date.now() / 1000),
    });
    return { status: 302, location: redirectBack(request.redirectUri, { code, state: request.state }) };
  }

  /** POST /oidc/token: the code, its verifier and redirect URI for the API's access token and an id token. */
  async token(params: Params): Promise<Answer> {
    const checked = checkTokenRequest(params, this.options.clientId);
    if (checked.kind === 'error') return { status: checked.status, json: checked.error };
    const grant = this.codes.take(checked.request.code);
    const refusal = refusalOf(grant, checked.request);
    if (refusal || !grant) return { status: 400, json: refusal };
    const { user } = grant;
    const idToken = await this.key.signIdToken({
      issuer: grant.issuer,
      audience: grant.clientId,
      subject: user.email,
      ttlSeconds: TOKEN_TTL_SECONDS,
      claims: {
        email: user.email,
        name: user.email.split('@')[0],
        auth_time: grant.authTime,
        ...(grant.nonce === undefined ? {} : { nonce: grant.nonce }),
        ...this.options.idTokenClaims(user),
      },
    });
    return {
      status: 200,
      json: {
        access_token: await this.options.accessToken(user, TOKEN_TTL_SECONDS),
        id_token: idToken,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_SECONDS,
        scope: grant.scope,
      },
    };
  }

  endSession(params: Params, origin: string): Answer {
    return { status: 302, location: endSessionTarget(params, origin) };
  }
}

function errorRedirect(checked: { redirectUri: string; error: OAuthError; state?: string }): Answer {
  return { status: 302, location: redirectBack(checked.redirectUri, { ...checked.error, state: checked.state }) };
}
