import { createHash, randomBytes } from 'node:crypto';
import { Answer, call } from './http';

// The authorization code flow with PKCE over real HTTP, as the consoles' SPA (oidc-client-ts) walks
// it against a console's development provider: the sign-in page's own form is what gets posted.

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  challenge: string;
  state?: string;
  nonce?: string;
  scope?: string;
  method?: string;
}

export function authorizeUrl(issuer: string, p: AuthorizeParams): string {
  const url = new URL(`${issuer}/authorize`);
  const params: Record<string, string | undefined> = {
    client_id: p.clientId,
    redirect_uri: p.redirectUri,
    response_type: 'code',
    code_challenge: p.challenge,
    code_challenge_method: p.method ?? 'S256',
    state: p.state ?? 'state-1',
    nonce: p.nonce,
    scope: p.scope ?? 'openid profile email',
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

const unescapeHtml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e as 'amp'],
  );

/** The hidden fields of the sign-in page's form: the authorization request it posts back. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[name] = unescapeHtml(value);
  }
  return fields;
}

/** Posts the sign-in page's form with the user's answers; the redirect is returned, not followed. */
export async function postSignIn(issuer: string, page: string, answers: Record<string, string>): Promise<Response> {
  return fetch(`${issuer}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hiddenFields(page), ...answers }),
    redirect: 'manual',
  });
}

export interface TokenParams {
  code: string;
  verifier: string;
  redirectUri: string;
  clientId: string;
}

export function exchangeCode(issuer: string, p: TokenParams): Promise<Answer> {
  return call(`${issuer}/token`, {
    method: 'POST',
    raw: new URLSearchParams({
      grant_type: 'authorization_code',
      code: p.code,
      code_verifier: p.verifier,
      redirect_uri: p.redirectUri,
      client_id: p.clientId,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** The code a sign-in redirected back with (and its state), from the Location header. */
export function codeOf(response: Response): { code: string | null; state: string | null; error: string | null } {
  const location = new URL(response.headers.get('location') ?? 'http://invalid/');
  return {
    code: location.searchParams.get('code'),
    state: location.searchParams.get('state'),
    error: location.searchParams.get('error'),
  };
}

/** Signs in with the given answers and exchanges the code: the token endpoint's answer. */
export async function signInWithCode(
  issuer: string,
  client: { clientId: string; redirectUri: string },
  answers: Record<string, string>,
): Promise<Answer> {
  const pkce = pkcePair();
  const page = await (await fetch(authorizeUrl(issuer, { ...client, challenge: pkce.challenge }))).text();
  const { code } = codeOf(await postSignIn(issuer, page, answers));
  if (!code) throw new Error('the sign-in did not redirect with a code');
  return exchangeCode(issuer, { ...client, code, verifier: pkce.verifier });
}
