import { projectorConfigFromEnv } from './config';

describe('projector configuration', () => {
  it('parses a valid environment, defaults where unset', () => {
    expect(projectorConfigFromEnv({ PROJECTOR_PORT: '0', KAFKA_PARTITIONS: '4' })).toMatchObject({
      port: 0,
      kafka: { partitions: 4, clientId: 'agentwatch-projector' },
    });
    expect(projectorConfigFromEnv({ PROJECTOR_PORT: '' }).port).toBe(8083);
  });

  it.each([
    ['PROJECTOR_PORT', '-1', 'PROJECTOR_PORT: expected an integer port 0–65535, got "-1"'],
    ['KAFKA_PARTITIONS', '0', 'KAFKA_PARTITIONS: expected a positive integer (partitions), got "0"'],
    [
      'KAFKA_SESSION_TIMEOUT_MS',
      '30s',
      'KAFKA_SESSION_TIMEOUT_MS: expected a positive integer (milliseconds), got "30s"',
    ],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => projectorConfigFromEnv({ [name]: value })).toThrow(message);
  });

  it("sizes the tenant databases' pools from TENANT_DATABASE_POOL_SIZE, 4 by default, logging in as the projector", () => {
    expect(projectorConfigFromEnv({}).cells).toMatchObject({ role: 'projector', poolSize: 4, rolePassword: null });
    expect(
      projectorConfigFromEnv({ TENANT_DATABASE_POOL_SIZE: '2', DATABASE_ROLE_PASSWORD: 'pw' }).cells,
    ).toMatchObject({
      poolSize: 2,
      rolePassword: 'pw',
    });
    expect(() => projectorConfigFromEnv({ TENANT_DATABASE_POOL_SIZE: '0' })).toThrow(
      'TENANT_DATABASE_POOL_SIZE: expected a positive integer (connections), got "0"',
    );
  });
});
