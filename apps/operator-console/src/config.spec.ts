import path from 'node:path';
import { operatorConsoleConfigFromEnv } from './config';

describe('operator console configuration', () => {
  it('defaults to port 8091, the local control plane and the control plane’s development operator issuer', () => {
    const config = operatorConsoleConfigFromEnv({});
    expect(config).toMatchObject({
      port: 8091,
      console: {
        webDir: path.join(process.cwd(), 'dist', 'web', 'operator-console'),
        oidc: { issuer: null, clientId: 'agentwatch-operator', scope: 'openid profile email' },
        upstreams: [{ prefix: '/api/control-plane', url: 'http://127.0.0.1:8082' }],
      },
      operator: {
        jwksUrl: null,
        issuer: 'agentwatch-operators-dev',
        devIssuerDir: path.join(process.cwd(), '.local', 'dev-operator-issuer'),
        roleClaim: 'role',
      },
    });
  });

  it('signs in with the control plane’s client, at the configured provider or the one the control plane trusts', () => {
    expect(
      operatorConsoleConfigFromEnv({ OPERATOR_CLIENT_ID: 'ops', OPERATOR_CONSOLE_OIDC_ISSUER: 'https://sso.example' })
        .console.oidc,
    ).toMatchObject({ issuer: 'https://sso.example', clientId: 'ops' });
    const trusted = { OPERATOR_JWKS_URL: 'https://sso.example/jwks', OPERATOR_JWT_ISSUER: 'https://sso.example' };
    expect(operatorConsoleConfigFromEnv(trusted).console.oidc.issuer).toBe('https://sso.example');
  });

  it.each([
    ['OPERATOR_CONSOLE_PORT', '-1', 'OPERATOR_CONSOLE_PORT: expected an integer port 0–65535, got "-1"'],
    ['CONTROL_PLANE_URL', 'nowhere', 'CONTROL_PLANE_URL: expected a http or https URL'],
    ['OPERATOR_JWKS_URL', 'https://sso.example/jwks', 'OPERATOR_JWT_ISSUER must name'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => operatorConsoleConfigFromEnv({ [name]: value })).toThrow(message);
  });

  it('ignores the control plane’s other variables (its cells)', () => {
    expect(() => operatorConsoleConfigFromEnv({ CONTROL_CELLS: '[]' })).not.toThrow();
  });
});
