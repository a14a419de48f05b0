import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDevIssuerKeys, readDevPublicKey } from '@agentwatch/auth';
import { RunningApp } from '@agentwatch/http';
import { call, createOrganization, RunningStack, startStack, suiteEnv } from '@agentwatch/testing';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import {
  authorizeUrl,
  codeOf,
  exchangeCode,
  pkcePair,
  postSignIn,
  signInWithCode,
} from '../../../libs/testing/src/oidc-code-flow';
import { productConsoleConfigFromEnv } from './config';
import { startProductConsole } from './main';

// The product console in front of a real cloud API: its development provider's code flow over HTTP,
// and the access token it issues used through the console's own proxy.
describe('product console', () => {
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-keys-'));
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-web-'));
  let stack: RunningStack;
  let running: RunningApp;
  let url: string;
  let issuer: string;
  let org: { orgId: string };
  const client = () => ({ clientId: 'agentwatch-console', redirectUri: `${url}/callback` });
  const someone = (label: string) => `${label}-${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    // The API reads the development key when it starts: it exists before.
    await ensureDevIssuerKeys(keyDir);
    org = await createOrganization('Console test organization');
    stack = await startStack('product-console', { AUTH_DEV_ISSUER_DIR: keyDir });
    running = await startProductConsole(
      productConsoleConfigFromEnv(
        suiteEnv('product-console-web', {
          CONSOLE_PORT: '0',
          HOST: '127.0.0.1',
          CONSOLE_WEB_DIR: webDir,
          AUTH_DEV_ISSUER_DIR: keyDir,
          CLOUD_API_URL: stack.apiUrl,
          // Nothing listens there: the scoring route answers 502.
          SCORING_API_URL: 'http://127.0.0.1:9',
          CONSOLE_DEV_ORGANIZATIONS: JSON.stringify([{ id: org.orgId, name: 'Console test organization' }]),
        }),
      ),
    );
    url = running.url.replace('[::1]', '127.0.0.1');
    issuer = `${url}/oidc`;
  });

  afterAll(async () => {
    await running?.app.close();
    await stack?.stop();
    fs.rmSync(keyDir, { recursive: true, force: true });
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers 503 until the console is built, then index.html for any deep link, under a strict policy', async () => {
    const unbuilt = await call<string>(`${url}/tenants/some/deep/link`);
    expect(unbuilt).toMatchObject({ status: 503, body: 'console not built: run npm run build\n' });
    expect((await call(`${url}/ready`)).status).toBe(503);

    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const deep = await call<string>(`${url}/tenants/some/deep/link?tab=2`);
    expect(deep.status).toBe(200);
    expect(deep.body).toContain('<div id="root">');
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    expect(deep.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(deep.headers.get('content-security-policy')).toContain("connect-src 'self';");
    expect((await call(`${url}/api/nothing-here`)).status).toBe(404);
    expect((await call(`${url}/ready`)).status).toBe(200);
  });

  it('serves /config.json naming its development provider at the origin the browser used', async () => {
    const settings = await call(`${url}/config.json`);
    expect(settings.body).toEqual({
      issuer,
      client_id: 'agentwatch-console',
      scope: 'openid profile email',
      redirect_path: '/callback',
    });
    const discovery = await call(`${issuer}/.well-known/openid-configuration`);
    expect(discovery.body).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      end_session_endpoint: `${issuer}/end-session`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
  });

  it('walks the code flow, and its access token creates an organization through the proxy', async () => {
    const pkce = pkcePair();
    const page = await fetch(authorizeUrl(issuer, { ...client(), challenge: pkce.challenge, nonce: 'n-1' }));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(html).toMatch(/<form method="post" action="\/oidc\/authorize">/);
    expect(html).toContain('<legend>User</legend>');
    expect(html).toMatch(/<input type="radio" id="user-0" name="user" value="analyst@example.com" checked>/);
    expect(html).toContain('<label for="user-1">admin@example.com</label>');
    expect(html).toMatch(/<label for="email">Email<\/label><input id="email" name="email" type="email"/);
    expect(html).toContain('<label for="organization">Organization</label>');
    expect(html).toContain(`<option value="${org.orgId}">Console test organization</option>`);
    expect(html).toContain('<option value="">No organization yet (create one after sign-in)</option>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    expect(html).not.toContain('<script');

    const email = someone('founder');
    const signedIn = await postSignIn(issuer, html, { email, organization: '' });
    expect(signedIn.status).toBe(302);
    const { code, state } = codeOf(signedIn);
    expect(signedIn.headers.get('location')).toMatch(new RegExp(`^${url}/callback\\?code=`));
    expect(state).toBe('state-1');

    const tokens = await exchangeCode(issuer, { ...client(), code: code!, verifier: pkce.verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'openid profile email' });
    const access = tokens.body.access_token as string;
    expect(decodeJwt(access)).toMatchObject({ iss: 'agentwatch-dev', aud: 'agentwatch', sub: email });
    expect(decodeJwt(access)).not.toHaveProperty('org_id');

    const { payload } = await jwtVerify(
      tokens.body.id_token as string,
      createLocalJWKSet((await call(`${issuer}/jwks`)).body as never),
      { issuer, audience: 'agentwatch-console' },
    );
    expect(payload).toMatchObject({ sub: email, email, nonce: 'n-1' });
    expect((await call(`${issuer}/jwks`)).body).toEqual({ keys: [readDevPublicKey(keyDir)] });

    const created = await call(`${url}/api/cloud/v1/tenant`, {
      method: 'POST',
      token: access,
      body: { name: 'Via console' },
    });
    expect(created).toMatchObject({ status: 200, body: { name: 'Via console' } });
    const listed = await call(`${url}/api/cloud/v1/deploy-tokens`, { token: access });
    expect(listed.status).toBe(200);
    expect((await call(`${url}/api/cloud/v1/deploy-tokens`)).status).toBe(401);
    expect((await call(`${url}/api/scoring/v1/policies`, { token: access })).status).toBe(502);
  });

  it('signs in under an organization it offers: the token carries the organization claim', async () => {
    const tokens = await signInWithCode(issuer, client(), { user: 'admin@example.com', organization: org.orgId });
    const access = tokens.body.access_token as string;
    expect(decodeJwt(access)).toMatchObject({ sub: 'admin@example.com', org_id: org.orgId });
    const listed = await call<{ name: string }[] | { items: { name: string }[] }>(`${url}/api/cloud/v1/deploy-tokens`, {
      token: access,
    });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain('"test"');
  });

  it('refuses a reused code, a wrong verifier, a foreign redirect URI and another client', async () => {
    const flow = async () => {
      const pkce = pkcePair();
      const page = await (await fetch(authorizeUrl(issuer, { ...client(), challenge: pkce.challenge }))).text();
      return { pkce, code: codeOf(await postSignIn(issuer, page, { user: 'analyst@example.com' })).code! };
    };
    const used = await flow();
    const params = { ...client(), code: used.code, verifier: used.pkce.verifier };
    expect((await exchangeCode(issuer, params)).status).toBe(200);
    expect(await exchangeCode(issuer, params)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const wrong = await flow();
    const guessed = { ...client(), code: wrong.code, verifier: pkcePair().verifier };
    expect(await exchangeCode(issuer, guessed)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const elsewhere = await flow();
    const moved = { ...client(), code: elsewhere.code, verifier: elsewhere.pkce.verifier, redirectUri: `${url}/other` };
    expect(await exchangeCode(issuer, moved)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const other = await flow();
    const stranger = { ...client(), code: other.code, verifier: other.pkce.verifier, clientId: 'someone-else' };
    expect(await exchangeCode(issuer, stranger)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });

    const challenge = pkcePair().challenge;
    const foreign = await call<string>(
      authorizeUrl(issuer, { ...client(), challenge, redirectUri: 'http://evil.test/cb' }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body).toContain('redirect_uri must be a URL of this console');
    const stranger2 = await call<string>(authorizeUrl(issuer, { ...client(), challenge, clientId: 'someone-else' }));
    expect(stranger2.status).toBe(400);
    const plain = await fetch(authorizeUrl(issuer, { ...client(), challenge, method: 'plain' }), {
      redirect: 'manual',
    });
    expect(codeOf(plain)).toMatchObject({ code: null, error: 'invalid_request', state: 'state-1' });
  });

  it('ends the session back on this console only', async () => {
    const end = (target: string) =>
      fetch(`${issuer}/end-session?post_logout_redirect_uri=${encodeURIComponent(target)}&state=s`, {
        redirect: 'manual',
      });
    expect((await end(`${url}/signed-out`)).headers.get('location')).toBe(`${url}/signed-out?state=s`);
    expect((await end('http://evil.test/')).headers.get('location')).toBe(`${url}/`);
  });
});
