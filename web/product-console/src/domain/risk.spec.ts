/// <reference types="jest" />
import { riskLevel } from './risk';

describe('riskLevel', () => {
  it.each([
    [0, 'none'],
    [1, 'low'],
    [24, 'low'],
    [25, 'medium'],
    [49, 'medium'],
    [50, 'high'],
    [74, 'high'],
    [75, 'critical'],
    [100, 'critical'],
  ])('%i is %s', (score, level) => {
    expect(riskLevel(score)).toBe(level);
  });

  it('is null while the event is unscored', () => {
    expect(riskLevel(null)).toBeNull();
    expect(riskLevel(undefined)).toBeNull();
  });
});
