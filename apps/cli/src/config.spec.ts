import { ConfigError } from '@agentwatch/config';
import { cliConfigFromEnv } from './config';

describe('CLI configuration', () => {
  it('parses a valid environment into the database and broker settings a command needs', () => {
    const config = cliConfigFromEnv(['database', 'kafka'], 'agentwatch-dlq', {
      DATABASE_URL: 'postgres://postgres@db.internal:5432/agentwatch_prod',
      DATABASE_ROLE_PASSWORD: 's3cret',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      KAFKA_PARTITIONS: '6',
      LOG_LEVEL: 'debug',
    });
    expect(config.database).toMatchObject({ database: 'agentwatch_prod', rolePassword: 's3cret' });
    expect(config.database.ownerUrl).toBe('postgres://agentwatch_owner:s3cret@db.internal:5432/agentwatch_prod');
    expect(config.kafka).toMatchObject({
      brokers: ['k1:9092', 'k2:9092'],
      partitions: 6,
      clientId: 'agentwatch-dlq',
      logLevel: 'debug',
    });
  });

  it('defaults where unset, an empty value counting as unset', () => {
    const { kafka } = cliConfigFromEnv(['kafka'], undefined, { KAFKA_PARTITIONS: '', LOG_LEVEL: '' });
    expect(kafka).toMatchObject({ clientId: 'agentwatch-cli', partitions: 12, logLevel: 'log', prefix: '' });
  });

  it.each([
    ['KAFKA_PARTITIONS', '0', 'KAFKA_PARTITIONS: expected a positive integer (partitions), got "0"'],
    ['KAFKA_BROKERS', 'localhost', 'KAFKA_BROKERS: expected comma-separated host:port pairs, got "localhost"'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL: expected one of fatal, error, warn, log, debug, verbose, got "loud"'],
    ['DATABASE_URL', 'mysql://db/x', 'DATABASE_URL: expected a postgres or postgresql URL, got "mysql://db/x"'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => cliConfigFromEnv(['database', 'kafka'], undefined, { [name]: value })).toThrow(ConfigError);
    expect(() => cliConfigFromEnv(['database', 'kafka'], undefined, { [name]: value })).toThrow(message);
  });

  it('reads the identity provider the way the cloud API does, an empty value counting as unset', () => {
    const { auth } = cliConfigFromEnv(['auth'], undefined, { AUTH_JWT_AUDIENCE: '', AUTH_DEV_ISSUER_DIR: '/keys' });
    expect(auth).toMatchObject({
      jwksUrl: null,
      issuer: 'agentwatch-dev',
      audience: 'agentwatch',
      devIssuerDir: '/keys',
    });
  });

  it.each([
    ['AUTH_HS256_SECRET', 'short', 'AUTH_HS256_SECRET: expected at least 32 characters, got 5'],
    ['AUTH_JWKS_URL', 'ftp://idp/jwks', 'AUTH_JWKS_URL: expected a https or http URL, got "ftp://idp/jwks"'],
  ])('%s=%s is refused for a command reading the identity provider', (name, value, message) => {
    expect(() => cliConfigFromEnv(['auth'], undefined, { [name]: value })).toThrow(message);
    expect(() => cliConfigFromEnv(['kafka'], undefined, { [name]: value })).not.toThrow();
  });

  it('a key set without its pinned audience names the missing variable', () => {
    const env = {
      AUTH_JWKS_URL: 'https://idp.example/jwks',
      AUTH_JWT_ISSUER: 'https://idp.example/',
      AUTH_JWT_AUDIENCE: '',
    };
    expect(() => cliConfigFromEnv(['auth'], undefined, env)).toThrow(
      'AUTH_JWT_AUDIENCE: expected a value while AUTH_JWKS_URL is set',
    );
  });

  it('reports every offending variable at once', () => {
    const env = { KAFKA_PARTITIONS: 'x', DATABASE_URL: 'http://db/x' };
    expect(() => cliConfigFromEnv(['database', 'kafka'], undefined, env)).toThrow(
      /DATABASE_URL: expected[^\n]*\n\s+KAFKA_PARTITIONS: expected/,
    );
  });

  it('a command validates only the variables it reads', () => {
    expect(() => cliConfigFromEnv(['kafka'], undefined, { DATABASE_URL: 'mysql://db/x' })).not.toThrow();
    expect(() => cliConfigFromEnv(['database'], undefined, { KAFKA_PARTITIONS: '0' })).not.toThrow();
  });

  it('a rule the database builder keeps across variables is reported as a configuration error', () => {
    expect(() => cliConfigFromEnv(['database'], undefined, { DATABASE_URL: 'postgres://db/Prod-DB' })).toThrow(
      'DATABASE_URL names database "Prod-DB"',
    );
  });
});
