import { cloudApiConfigFromEnv } from './config';

describe('cloud API configuration', () => {
  it('parses a valid environment, defaults where unset', () => {
    const config = cloudApiConfigFromEnv({
      CLOUD_API_PORT: '9000',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      KAFKA_BROKERS: 'a:9092, b:9093',
      INGEST_RATE_LIMIT_BURST: '50',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      logLevel: 'debug',
      rateLimit: { rps: 200, burst: 50 },
    });
    expect(config.kafka.brokers).toEqual(['a:9092', 'b:9093']);
    expect(config.database.database).toBe('agentwatch');
    expect(config.cells.poolSize).toBe(4);
    expect(cloudApiConfigFromEnv({ TENANT_DATABASE_POOL_SIZE: '12' }).cells.poolSize).toBe(12);
    expect(cloudApiConfigFromEnv({})).toMatchObject({ port: 8080, host: '0.0.0.0', logLevel: 'log' });
  });

  it.each([
    ['CLOUD_API_PORT', 'abc', 'CLOUD_API_PORT: expected an integer port 0–65535, got "abc"'],
    ['CLOUD_API_PORT', '70000', 'CLOUD_API_PORT: expected an integer port 0–65535, got "70000"'],
    ['INGEST_RATE_LIMIT_RPS', '1.5', 'INGEST_RATE_LIMIT_RPS: expected a positive integer'],
    ['TENANT_DATABASE_POOL_SIZE', '0', 'TENANT_DATABASE_POOL_SIZE: expected a positive integer (connections)'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL: expected one of fatal, error, warn, log, debug, verbose, got "loud"'],
    ['DATABASE_URL', 'mysql://x/y', 'DATABASE_URL: expected a postgres or postgresql URL'],
    ['KAFKA_BROKERS', 'nohost', 'KAFKA_BROKERS: expected comma-separated host:port pairs'],
    ['AUTH_HS256_SECRET', 'short', 'AUTH_HS256_SECRET: expected at least 32 characters, got 5'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => cloudApiConfigFromEnv({ [name]: value })).toThrow(message);
  });

  it('never echoes a secret or a database password', () => {
    const error = (() => {
      try {
        cloudApiConfigFromEnv({ AUTH_HS256_SECRET: 'hunter2', DATABASE_URL: 'mysql://u:s3cret@h/db' });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error).toContain('AUTH_HS256_SECRET');
    expect(error).not.toContain('hunter2');
    expect(error).not.toContain('s3cret');
  });

  it('reports a rule spanning variables with their names', () => {
    expect(() => cloudApiConfigFromEnv({ AUTH_JWKS_URL: 'https://idp.example/jwks' })).toThrow(/AUTH_JWT_ISSUER/);
  });
});
