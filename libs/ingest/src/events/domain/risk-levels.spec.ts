import { riskLevelCounts } from './risk-levels';

describe('risk level counts of the stats', () => {
  it('lists every level, and counts as unscored what the scored levels leave of the total', () => {
    expect(riskLevelCounts(10, { low: 3, critical: 1 })).toEqual({
      none: 0,
      low: 3,
      medium: 0,
      high: 0,
      critical: 1,
      unscored: 6,
    });
  });

  it('has nothing unscored once every event is scored', () => {
    expect(riskLevelCounts(4, { none: 1, low: 1, medium: 1, high: 1 }).unscored).toBe(0);
  });
});
