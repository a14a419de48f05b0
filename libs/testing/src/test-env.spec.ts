import { infrastructureEnv, isProductConfiguration } from './test-env';

describe('the environment test stacks start from', () => {
  it('drops the product configuration a shell may export and keeps the infrastructure', () => {
    const exported = {
      PATH: '/usr/bin',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/agentwatch_test_x',
      DATABASE_ROLE_PASSWORD: 'secret',
      KAFKA_BROKERS: '127.0.0.1:9092',
      KAFKA_TOPIC_PREFIX: 'test-x.',
      KAFKA_PARTITIONS: '4',
      AUTH_JWKS_URL: 'http://127.0.0.1:1/jwks',
      AUTH_HS256_SECRET: 'x',
      OPERATOR_CLIENT_ID: 'someone-else',
      LLM_URL: 'http://127.0.0.1:1',
      CONTROL_CELLS: '[]',
      CONSOLE_OIDC_ISSUER: 'https://idp.example',
      CLOUD_API_URL: 'http://127.0.0.1:1',
      INGEST_RATE_LIMIT_RPS: '1',
      CLOUD_API_PORT: '8080',
      SCORING_WORKER_PORT: '8084',
      DATABASE_APP_URL: 'postgres://agentwatch_app@127.0.0.1:5432/agentwatch',
      KAFKA_PUBLISH_TIMEOUT_MS: '1',
      AGENTWATCH_FAILPOINT: 'projector.after-db-commit',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'verbose',
    };
    expect(infrastructureEnv(exported)).toEqual({
      PATH: '/usr/bin',
      DATABASE_URL: exported.DATABASE_URL,
      DATABASE_ROLE_PASSWORD: 'secret',
      KAFKA_BROKERS: '127.0.0.1:9092',
      KAFKA_TOPIC_PREFIX: 'test-x.',
      KAFKA_PARTITIONS: '4',
    });
    expect(isProductConfiguration('AUTH_ORG_CLAIM')).toBe(true);
    expect(isProductConfiguration('DATABASE_URL')).toBe(false);
  });
});
