import path from 'node:path';
import { productConsoleConfigFromEnv } from './config';

const ORG = '0195f3a0-0000-7000-8000-000000000001';

describe('product console configuration', () => {
  it('defaults to port 8090, the local APIs, its build under dist/web and the development provider', () => {
    const config = productConsoleConfigFromEnv({});
    expect(config).toMatchObject({
      port: 8090,
      console: {
        webDir: path.join(process.cwd(), 'dist', 'web', 'product-console'),
        oidc: { issuer: null, clientId: 'agentwatch-console', scope: 'openid profile email' },
        upstreams: [
          { prefix: '/api/cloud', url: 'http://127.0.0.1:8080' },
          { prefix: '/api/scoring', url: 'http://127.0.0.1:8081' },
        ],
      },
      devOrganizations: [],
    });
  });

  it('reads the organizations the development sign-in offers, as agentwatch create-org prints them', () => {
    const organization = { id: ORG, name: 'local development', created_at: '2026-01-01T00:00:00.000Z' };
    expect(productConsoleConfigFromEnv({ CONSOLE_DEV_ORGANIZATIONS: JSON.stringify([organization]) })).toMatchObject({
      devOrganizations: [{ id: ORG, name: 'local development' }],
    });
  });

  it('takes a configured identity provider, or the one the cloud API trusts', () => {
    expect(
      productConsoleConfigFromEnv({ CONSOLE_OIDC_ISSUER: 'https://idp.example/', CONSOLE_OIDC_CLIENT_ID: 'web' })
        .console.oidc,
    ).toEqual({ issuer: 'https://idp.example/', clientId: 'web', scope: 'openid profile email' });
    const trusted = {
      AUTH_JWKS_URL: 'https://idp.example/jwks',
      AUTH_JWT_ISSUER: 'https://idp.example/',
      AUTH_JWT_AUDIENCE: 'agentwatch',
    };
    expect(productConsoleConfigFromEnv(trusted).console.oidc.issuer).toBe('https://idp.example/');
  });

  it.each([
    ['CONSOLE_PORT', 'web', 'CONSOLE_PORT: expected an integer port 0–65535, got "web"'],
    ['CONSOLE_OIDC_ISSUER', 'idp.example', 'CONSOLE_OIDC_ISSUER: expected a https or http URL'],
    ['CLOUD_API_URL', 'ftp://x', 'CLOUD_API_URL: expected a http or https URL'],
    ['CONSOLE_DEV_ORGANIZATIONS', '[{"id":"x","name":"a"}]', 'CONSOLE_DEV_ORGANIZATIONS: expected a JSON array'],
    ['CONSOLE_DEV_ORGANIZATIONS', '{', 'CONSOLE_DEV_ORGANIZATIONS: expected a JSON array'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => productConsoleConfigFromEnv({ [name]: value })).toThrow(message);
  });

  it('refuses to sign in with the development provider while the cloud API trusts another issuer', () => {
    const env = { AUTH_JWKS_URL: 'https://idp.example/jwks', AUTH_JWT_ISSUER: 'idp', AUTH_JWT_AUDIENCE: 'a' };
    expect(() => productConsoleConfigFromEnv(env)).toThrow('CONSOLE_OIDC_ISSUER: expected the identity provider');
  });
});
