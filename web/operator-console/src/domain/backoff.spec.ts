/// <reference types="jest" />
import { MAX_DELAY_MS, reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  it('doubles from 1 s per attempt in a row', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => reconnectDelay(attempt))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('is capped at 30 s however many attempts failed', () => {
    expect(reconnectDelay(6)).toBe(MAX_DELAY_MS);
    expect(reconnectDelay(1000)).toBe(MAX_DELAY_MS);
  });

  it("never waits less than the server's retry field asks", () => {
    expect(reconnectDelay(1, 2000)).toBe(2000);
    expect(reconnectDelay(2, 2000)).toBe(2000);
    expect(reconnectDelay(3, 2000)).toBe(4000);
    expect(reconnectDelay(9, 45_000)).toBe(45_000);
  });

  it('treats attempt 0 as the first', () => {
    expect(reconnectDelay(0)).toBe(1000);
  });
});
