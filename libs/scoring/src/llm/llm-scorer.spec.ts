import { parseLlmScore } from './llm-scorer';

const completion = (content: unknown) => ({ choices: [{ message: { role: 'assistant', content } }] });

describe('reading the model answer', () => {
  it.each([
    [completion('{"score": 72, "reasoning": "x"}'), 72],
    [completion('Sure. ```json\n{"score": 12.6}\n```'), 13],
    [completion('{"score": 250}'), 100],
    [completion('{"score": -3}'), 0],
    [completion('{"score": "high"}'), null],
    [completion('no json here'), null],
    [completion(42), null],
    [{ error: { message: 'rate limited' } }, null],
  ])('%j → %s', (body, expected) => {
    expect(parseLlmScore(body)).toBe(expected);
  });
});
