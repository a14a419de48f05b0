import { histogramQuantile } from './histogram-quantile';

const buckets = (...pairs: [number, number][]) => pairs.map(([le, count]) => ({ le, count }));

describe('histogramQuantile', () => {
  // 10 observations ≤ 1, 10 more in (1, 2], none above: as Prometheus would answer.
  const h = buckets([1, 10], [2, 20], [5, 20], [Infinity, 20]);

  it('interpolates linearly within the bucket holding the rank, the first one starting at 0', () => {
    expect(histogramQuantile(0.25, h)).toBeCloseTo(0.5);
    expect(histogramQuantile(0.5, h)).toBeCloseTo(1);
    expect(histogramQuantile(0.99, h)).toBeCloseTo(1.98);
    expect(histogramQuantile(1, h)).toBeCloseTo(2);
  });

  it('answers the highest finite bound for a rank in the +Inf bucket', () => {
    expect(histogramQuantile(0.99, buckets([1, 1], [2, 2], [Infinity, 10]))).toBe(2);
  });

  it('reads buckets in any order and evens out counts that fall between two scrapes', () => {
    expect(histogramQuantile(0.5, buckets([Infinity, 4], [2, 3], [1, 4]))).toBeCloseTo(0.5);
  });

  it('has no answer without observations or without a +Inf bucket', () => {
    expect(histogramQuantile(0.5, buckets([1, 0], [Infinity, 0]))).toBeNull();
    expect(histogramQuantile(0.5, buckets([1, 3], [2, 4]))).toBeNull();
    expect(() => histogramQuantile(0, h)).toThrow(RangeError);
  });
});
