/** A cumulative bucket: observations at or below `le` (the last one's `le` is Infinity). */
export interface Bucket {
  le: number;
  count: number;
}

/**
 * The q-quantile of a histogram as Prometheus's histogram_quantile estimates it: the bucket holding
 * the rank, interpolated linearly within it (the first bucket starts at 0); a rank in the +Inf bucket
 * gives the highest finite bound. Null without observations.
 */
export function histogramQuantile(q: number, cumulative: readonly Bucket[]): number | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`quantile ${q} is not in (0, 1]`);
  const buckets = [...cumulative].sort((a, b) => a.le - b.le);
  if (buckets.length < 2 || buckets[buckets.length - 1].le !== Infinity) return null;
  // Scrapes taken apart may disagree by a count or two: cumulative counts never fall.
  for (let i = 1; i < buckets.length; i++) {
    if (buckets[i].count < buckets[i - 1].count) buckets[i] = { ...buckets[i], count: buckets[i - 1].count };
  }
  const total = buckets[buckets.length - 1].count;
  if (total <= 0) return null;
  const rank = q * total;
  const b = buckets.findIndex((bucket) => bucket.count >= rank);
  if (b === buckets.length - 1) return buckets[buckets.length - 2].le;
  if (b === 0 && buckets[0].le <= 0) return buckets[0].le;
  const start = b === 0 ? 0 : buckets[b - 1].le;
  const before = b === 0 ? 0 : buckets[b - 1].count;
  const inBucket = buckets[b].count - before;
  return start + (buckets[b].le - start) * ((rank - before) / inBucket);
}
