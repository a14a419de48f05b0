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

  it('reads two cells, the one without admin_url on DATABASE_URL’s server', () => {
    const cells = [
      { id: 'local-1', region: 'local', capacity: 10 },
      { id: 'cell-2', region: 'eu-2', capacity: 5, admin_url: 'postgres://postgres@127.0.0.1:5433/postgres' },
    ];
    const config = controlPlaneConfigFromEnv({ CONTROL_CELLS: JSON.stringify(cells) });
    expect(config.tenancy.cells).toEqual([{ ...cells[0], admin_url: config.database.adminUrl }, cells[1]]);
  });

  it.each([
    ['CONTROL_PLANE_PORT', 'http', 'CONTROL_PLANE_PORT: expected an integer port 0–65535, got "http"'],
    ['CONTROL_RETRY_MAX_ATTEMPTS', '0', 'CONTROL_RETRY_MAX_ATTEMPTS: expected a positive integer (attempts), got "0"'],
    ['CONTROL_CELLS', '[{', 'CONTROL_CELLS: expected a JSON array'],
    ['CONTROL_CELLS', '{}', 'CONTROL_CELLS: expected a JSON array'],
    ['CONTROL_CELLS', '[]', 'CONTROL_CELLS: expected a JSON array'],
    ['CONTROL_CELLS', '[{"id":"a","region":"eu","capacity":"9"}]', 'CONTROL_CELLS: [0].capacity:'],
    ['CONTROL_CELLS', '[{"id":"a","region":"eu","capacity":-1}]', 'CONTROL_CELLS: [0].capacity:'],
    ['CONTROL_CELLS', '[{"id":"a","region":"eu","capacity":1.5}]', 'CONTROL_CELLS: [0].capacity:'],
    [
      'CONTROL_CELLS',
      '[{"id":"a","region":"eu","capacity":1,"admin_url":"http://x"}]',
      'CONTROL_CELLS: [0].admin_url:',
    ],
    ['CONTROL_CELLS', '[{"id":"a","region":"eu","capacity":1,"adminurl":"x"}]', 'CONTROL_CELLS: [0]:'],
    [
      'CONTROL_CELLS',
      '[{"id":"a","region":"eu","capacity":1},{"id":"a","region":"us","capacity":1}]',
      'CONTROL_CELLS: expected a JSON array of {id, region, capacity, admin_url}: cell ids must be unique',
    ],
    ['OPERATOR_JWKS_URL', 'https://idp.example/jwks', 'OPERATOR_JWT_ISSUER must name'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => controlPlaneConfigFromEnv({ [name]: value })).toThrow(message);
  });
});
