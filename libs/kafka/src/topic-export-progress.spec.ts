import {
  ExportProgress,
  etaSeconds,
  formatDuration,
  progressBar,
  progressLine,
  recordsPerSecond,
} from './topic-export-progress';

describe('progress arithmetic', () => {
  it('measures the rate over the records read so far', () => {
    expect(recordsPerSecond({ read: 5000, exported: 10, total: 20_000, elapsedMs: 2000 })).toBe(2500);
    expect(recordsPerSecond({ read: 0, exported: 0, total: 10, elapsedMs: 0 })).toBe(0);
  });

  it('estimates the time left from that rate, rounding up', () => {
    expect(etaSeconds({ read: 5000, exported: 0, total: 20_000, elapsedMs: 2000 })).toBe(6);
    expect(etaSeconds({ read: 1, exported: 0, total: 4, elapsedMs: 1000 })).toBe(3);
    expect(etaSeconds({ read: 0, exported: 0, total: 20_000, elapsedMs: 0 })).toBeNull();
    expect(etaSeconds({ read: 10, exported: 0, total: 10, elapsedMs: 10 })).toBe(0);
  });

  it.each([
    [null, '--:--'],
    [0, '00:00'],
    [65, '01:05'],
    [3725, '1:02:05'],
  ])('formats %p seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('writes a plain line and a bar with percentage, rate and ETA', () => {
    const snapshot = { read: 5000, exported: 12, total: 20_000, elapsedMs: 2000 };
    expect(progressLine(snapshot)).toBe(
      'export: 5000/20000 records read (25%), 12 exported, 2500 records/s, ETA 00:06',
    );
    expect(progressBar(snapshot, 8)).toBe('[##......]  25% 5000/20000 12 exported 2500 records/s ETA 00:06');
  });

  it('treats an empty range as complete', () => {
    expect(progressBar({ read: 0, exported: 0, total: 0, elapsedMs: 0 }, 4)).toMatch(/^\[####\] 100%/);
  });
});

describe('the progress writer', () => {
  function writer(isTTY: boolean) {
    let clock = 0;
    const written: string[] = [];
    const progress = new ExportProgress({ isTTY, write: (text: string) => written.push(text) }, () => clock, 1000);
    return { progress, written, advance: (ms: number) => (clock += ms) };
  }

  it('off a terminal writes whole lines, at most one per interval', () => {
    const { progress, written, advance } = writer(false);
    progress.start('ingest.events.v1', 4, 3000);
    advance(500);
    progress.update(500, 1);
    advance(500);
    progress.update(1000, 2);
    advance(1000);
    progress.finish(3000, 6);
    expect(written).toEqual([
      'export: ingest.events.v1, 4 partitions, 3000 records in range\n',
      'export: 1000/3000 records read (33%), 2 exported, 1000 records/s, ETA 00:02\n',
      'export: done, 3000 records read, 6 exported in 2.0s (1500 records/s)\n',
    ]);
    expect(written.join('')).not.toContain('\r');
  });

  it('on a terminal redraws one bar in place and ends it with a newline', () => {
    const { progress, written, advance } = writer(true);
    progress.start('ingest.events.v1', 4, 3000);
    advance(1000);
    progress.update(1000, 2);
    advance(1000);
    progress.finish(3000, 6);
    const redraw = '\r\x1b[K';
    expect(written[1]).toBe(
      `${redraw}[${'#'.repeat(9)}${'.'.repeat(21)}]  33% 1000/3000 2 exported 1000 records/s ETA 00:02`,
    );
    expect(written[2]).toBe(`${redraw}[${'#'.repeat(30)}] 100% 3000/3000 6 exported 1500 records/s ETA 00:00\n`);
    expect(written[3]).toBe('export: done, 3000 records read, 6 exported in 2.0s (1500 records/s)\n');
  });
});
