import { controlPlaneConfigFromEnv } from './config';

describe('control plane configuration', () => {
  it('parses a valid environment, defaults where unset', () => {
    const config = controlPlaneConfigFromEnv({ CONTROL_POLL_MS: '100', CONTROL_OUTBOX_RETENTION_HOURS: '2' });
    expect(config).toMatchObject({
      port: 8082,
      tenancy: { pollMs: 100, outboxRetentionMs: 7_200_000, retry: { maxAttempts: 5 } },
    });
    expect(config.tenancy.cells).toEqual([
      expect.objectContaining({ id: 'local-1', admin_url: config.database.adminUrl }),
    ]);
  });

  it.each([
    ['CONTROL_PLANE_PORT', 'http', 'CONTROL_PLANE_PORT: expected an integer port 0–65535, got "http"'],
    ['CONTROL_RETRY_MAX_ATTEMPTS', '0', 'CONTROL_RETRY_MAX_ATTEMPTS: expected a positive integer (attempts), got "0"'],
    ['CONTROL_CELLS', '[{', 'CONTROL_CELLS: expected a JSON array'],
    ['CONTROL_CELLS', '{}', 'CONTROL_CELLS must be a JSON array'],
    ['OPERATOR_JWKS_URL', 'https://idp.example/jwks', 'OPERATOR_JWT_ISSUER must name'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => controlPlaneConfigFromEnv({ [name]: value })).toThrow(message);
  });
});
