import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningApp } from '@agentwatch/http';
import { call, eventually, suiteEnv } from '@agentwatch/testing';
import { decodeJwt } from 'jose';
import { openSse } from '../../../libs/testing/src/control-plane-sse';
import {
  isolatedDatabase,
  RunningControlPlane,
  startControlPlaneApp,
  uniqueSlug,
} from '../../../libs/testing/src/control-plane-stack';
import { authorizeUrl, pkcePair, signInWithCode } from '../../../libs/testing/src/oidc-code-flow';
import { operatorConsoleConfigFromEnv } from './config';
import { startOperatorConsole } from './main';

// The operator console in front of a real control plane that trusts the development operator issuer
// (OPERATOR_JWKS_URL unset, one key dir shared by both): sign-in, the API through the proxy, and an
// event stream that arrives through it while the request is still open.
describe('operator console', () => {
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-keys-'));
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-web-'));
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let cp: RunningControlPlane;
  let running: RunningApp;
  let url: string;
  let issuer: string;
  const client = () => ({ clientId: 'agentwatch-operator', redirectUri: `${url}/callback` });
  const tenant = (slug: string) => ({
    slug,
    name: 'Console Corp',
    owner_email: 'it@console.test',
    region: 'local',
    plan_tier: 'core',
    isolation: 'shared',
  });
  const signIn = async (answers: Record<string, string>) =>
    (await signInWithCode(issuer, client(), answers)).body as Record<string, string>;

  beforeAll(async () => {
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>operators</title>');
    db = await isolatedDatabase('opconsole');
    const operatorEnv = { OPERATOR_DEV_ISSUER_DIR: keyDir, OPERATOR_CLIENT_ID: 'agentwatch-operator' };
    cp = await startControlPlaneApp(
      suiteEnv('operator-console', {
        ...db.env,
        ...operatorEnv,
        CONTROL_POLL_MS: '100',
        CONTROL_SSE_HEARTBEAT_MS: '1000',
      }),
    );
    running = await startOperatorConsole(
      operatorConsoleConfigFromEnv(
        suiteEnv('operator-console-web', {
          ...operatorEnv,
          OPERATOR_CONSOLE_PORT: '0',
          HOST: '127.0.0.1',
          OPERATOR_CONSOLE_WEB_DIR: webDir,
          CONTROL_PLANE_URL: cp.url,
        }),
      ),
    );
    url = running.url.replace('[::1]', '127.0.0.1');
    issuer = `${url}/oidc`;
  });

  afterAll(async () => {
    await running?.app.close();
    await cp?.stop();
    await db?.drop();
    fs.rmSync(keyDir, { recursive: true, force: true });
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('names its development provider and the control plane’s operator client in /config.json', async () => {
    expect((await call(`${url}/config.json`)).body).toEqual({
      issuer,
      client_id: 'agentwatch-operator',
      scope: 'openid profile email',
      redirect_path: '/callback',
    });
    const deep = await call<string>(`${url}/tenants/acme/flows`);
    expect(deep.body).toContain('<title>operators</title>');
  });

  it('asks for a user and a role on its sign-in page', async () => {
    const html = await (await fetch(authorizeUrl(issuer, { ...client(), challenge: pkcePair().challenge }))).text();
    expect(html).toContain('<label for="user-0">alice@example.com</label>');
    expect(html).toContain('<label for="user-1">bob@example.com</label>');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<legend>Role</legend>');
    expect(html).toMatch(
      /<input type="radio" id="role-0" name="role" value="operator" checked> <label for="role-0">operator<\/label>/,
    );
    expect(html).toContain('<label for="role-1">viewer</label>');
  });

  it('signs an operator in whose token requests a tenant through the proxy, and a viewer who may only read', async () => {
    const operator = await signIn({ user: 'alice@example.com', role: 'operator' });
    expect(decodeJwt(operator.access_token)).toMatchObject({
      iss: 'agentwatch-operators-dev',
      azp: 'agentwatch-operator',
      sub: 'alice@example.com',
      role: 'operator',
    });
    expect(decodeJwt(operator.id_token)).toMatchObject({ iss: issuer, aud: 'agentwatch-operator', role: 'operator' });

    const slug = uniqueSlug('console');
    const requested = await call(`${url}/api/control-plane/v1/tenants`, {
      method: 'POST',
      token: operator.access_token,
      body: tenant(slug),
    });
    expect(requested).toMatchObject({ status: 202, body: { slug } });
    const detail = await call(`${url}/api/control-plane/v1/tenants/${slug}`, { token: operator.access_token });
    expect(detail.status).toBe(200);
    const listed = await call(`${url}/api/control-plane/v1/tenants`, { token: operator.access_token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(slug);

    const viewer = await signIn({ email: 'Vera@Example.com', role: 'viewer' });
    expect(decodeJwt(viewer.access_token)).toMatchObject({ sub: 'vera@example.com', role: 'viewer' });
    const refused = await call(`${url}/api/control-plane/v1/tenants`, {
      method: 'POST',
      token: viewer.access_token,
      body: tenant(uniqueSlug('viewer')),
    });
    expect(refused).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await call(`${url}/api/control-plane/v1/tenants/${slug}`, { token: viewer.access_token })).status).toBe(
      200,
    );
  });

  it('streams a tenant’s events through the proxy as they happen, resuming after Last-Event-ID', async () => {
    const { access_token: token } = await signIn({ user: 'bob@example.com', role: 'operator' });
    const slug = uniqueSlug('stream');
    const stream = `${url}/api/control-plane/v1/tenants/${slug}/events`;
    expect(
      (await call(`${url}/api/control-plane/v1/tenants`, { method: 'POST', token, body: tenant(slug) })).status,
    ).toBe(202);

    const first = openSse(stream, token);
    let ended = false;
    void first.done.finally(() => (ended = true));
    const history = await eventually(
      async () => first.events,
      (events) => events.some((e) => e.event === 'ApprovalRequested'),
      { what: 'ApprovalRequested on the proxied stream' },
    );
    expect(ended).toBe(false);
    expect(first.headers?.get('content-type')).toMatch(/^text\/event-stream/);
    first.close();

    const lastSeen = history[history.length - 1].id;
    const resumed = openSse(stream, token, lastSeen);
    const cancelled = await call(`${url}/api/control-plane/v1/tenants/${slug}/cancel`, {
      method: 'POST',
      token,
      body: { reason: 'requested by mistake' },
    });
    expect(cancelled.status).toBe(200);
    const live = await eventually(
      async () => resumed.events,
      (events) => events.length > 0,
      { what: 'an event after Last-Event-ID on the proxied stream' },
    );
    expect(live.every((e) => BigInt(e.id) > BigInt(lastSeen))).toBe(true);
    resumed.close();
    await resumed.done;
  });
});
