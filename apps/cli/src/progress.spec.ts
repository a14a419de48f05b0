import { describeProgress, progressBar } from './progress';

describe('progress lines', () => {
  it('gives percentage, counts, rate and ETA', () => {
    expect(describeProgress({ applied: 2500, total: 10_000, elapsedSeconds: 2 })).toBe(
      '25% 2,500/10,000 records · 1,250 records/s · ETA 6s',
    );
  });

  it('has no ETA before anything was applied, and is complete for an empty topic', () => {
    expect(describeProgress({ applied: 0, total: 10, elapsedSeconds: 0 })).toBe(
      '0% 0/10 records · 0 records/s · ETA –',
    );
    expect(describeProgress({ applied: 0, total: 0, elapsedSeconds: 1 })).toMatch(/^100% 0\/0/);
  });

  it('draws a bar of the given width', () => {
    expect(progressBar({ applied: 5, total: 10, elapsedSeconds: 1 }, 10)).toMatch(/^\[#####-----\] 50%/);
  });
});
