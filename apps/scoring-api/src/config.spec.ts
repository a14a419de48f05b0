import { scoringApiConfigFromEnv } from './config';

describe('scoring-api configuration', () => {
  it('parses a valid environment, defaults where unset', () => {
    const config = scoringApiConfigFromEnv({ LLM_URL: 'https://llm.example/v1/', LLM_CONCURRENCY: '2' });
    expect(config).toMatchObject({
      port: 8081,
      llm: { url: 'https://llm.example/v1', concurrency: 2, timeoutMs: 3000 },
    });
    expect(scoringApiConfigFromEnv({ SCORING_API_PORT: '0' }).port).toBe(0);
  });

  it.each([
    ['SCORING_API_PORT', 'abc', 'SCORING_API_PORT: expected an integer port 0–65535, got "abc"'],
    ['LLM_URL', 'llm.example', 'LLM_URL: expected a http or https URL, got "llm.example"'],
    ['LLM_TIMEOUT_MS', '0', 'LLM_TIMEOUT_MS: expected a positive integer (milliseconds), got "0"'],
  ])('%s=%s is refused, naming the variable', (name, value, message) => {
    expect(() => scoringApiConfigFromEnv({ [name]: value })).toThrow(message);
  });
});
