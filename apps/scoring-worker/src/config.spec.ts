import { scoringWorkerConfigFromEnv } from './config';

describe('scoring-worker configuration', () => {
  it('parses a valid environment, defaults where unset', () => {
    const config = scoringWorkerConfigFromEnv({ LLM_URL: 'https://llm.example/v1/', LLM_CONCURRENCY: '2' });
    expect(config).toMatchObject({
      port: 8084,
      llm: { url: 'https://llm.example/v1', concurrency: 2, timeoutMs: 3000 },
    });
    expect(scoringWorkerConfigFromEnv({ SCORING_WORKER_PORT: '0' }).port).toBe(0);
  });

  it.each([
    ['SCORING_WORKER_PORT', 'abc', 'SCORING_WORKER_PORT: expected an integer port 0–65535, got "abc"'],
    ['LLM_URL', 'llm.example', 'LLM_URL: expected a http or https URL, got "llm.example"'],
    ['LLM_TIMEOUT_MS', '0', 'LLM_TIMEOUT_MS: expected a positive integer (milliseconds), got "0"'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => scoringWorkerConfigFromEnv({ [name]: value })).toThrow(message);
  });

  it("sizes the tenant databases' pools from TENANT_DATABASE_POOL_SIZE, 4 by default, logging in as the projector", () => {
    expect(scoringWorkerConfigFromEnv({}).cells).toMatchObject({ role: 'projector', poolSize: 4, rolePassword: null });
    expect(
      scoringWorkerConfigFromEnv({ TENANT_DATABASE_POOL_SIZE: '2', DATABASE_ROLE_PASSWORD: 'pw' }).cells,
    ).toMatchObject({
      poolSize: 2,
      rolePassword: 'pw',
    });
    expect(() => scoringWorkerConfigFromEnv({ TENANT_DATABASE_POOL_SIZE: '0' })).toThrow(
      'TENANT_DATABASE_POOL_SIZE: expected a positive integer (connections), got "0"',
    );
  });
});
