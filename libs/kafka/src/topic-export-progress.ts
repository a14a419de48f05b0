// Progress of a long read for a person watching stderr: a redrawn bar on a terminal, plain lines
// otherwise (a CI log or a file must not fill with carriage returns).

export interface ProgressSnapshot {
  /** Records read from the range so far, selected or not. */
  read: number;
  exported: number;
  /** Records in the range (the sum of the partitions' offset spans). */
  total: number;
  elapsedMs: number;
}

export function recordsPerSecond({ read, elapsedMs }: ProgressSnapshot): number {
  return elapsedMs > 0 ? (read * 1000) / elapsedMs : 0;
}

/** Seconds left at the rate so far; null while there is no rate to go by. */
export function etaSeconds(snapshot: ProgressSnapshot): number | null {
  const rate = recordsPerSecond(snapshot);
  if (snapshot.read >= snapshot.total) return 0;
  if (rate === 0) return null;
  return Math.ceil((snapshot.total - snapshot.read) / rate);
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '--:--';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const percent = ({ read, total }: ProgressSnapshot): number => (total === 0 ? 100 : Math.floor((read * 100) / total));

export function progressLine(snapshot: ProgressSnapshot): string {
  const rate = Math.round(recordsPerSecond(snapshot));
  return (
    `export: ${snapshot.read}/${snapshot.total} records read (${percent(snapshot)}%), ${snapshot.exported} exported, ` +
    `${rate} records/s, ETA ${formatDuration(etaSeconds(snapshot))}`
  );
}

export function progressBar(snapshot: ProgressSnapshot, width = 30): string {
  const filled = Math.min(width, Math.floor((percent(snapshot) * width) / 100));
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  const rate = Math.round(recordsPerSecond(snapshot));
  return (
    `[${bar}] ${String(percent(snapshot)).padStart(3)}% ${snapshot.read}/${snapshot.total} ` +
    `${snapshot.exported} exported ${rate} records/s ETA ${formatDuration(etaSeconds(snapshot))}`
  );
}

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Throttled writer of progress; the clock is passed in so tests decide when a line is due. */
export class ExportProgress {
  private total = 0;
  private startedAt = 0;
  private lastAt = 0;

  constructor(
    private readonly output: ProgressOutput,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = output.isTTY ? 200 : 5000,
  ) {}

  start(topic: string, partitions: number, total: number): void {
    this.total = total;
    this.startedAt = this.now();
    this.lastAt = this.startedAt;
    this.output.write(`export: ${topic}, ${partitions} partitions, ${total} records in range\n`);
  }

  update(read: number, exported: number): void {
    const at = this.now();
    if (at - this.lastAt < this.intervalMs) return;
    this.lastAt = at;
    const snapshot = this.snapshot(read, exported, at);
    if (this.output.isTTY) this.output.write(`\r\x1b[K${progressBar(snapshot)}`);
    else this.output.write(`${progressLine(snapshot)}\n`);
  }

  finish(read: number, exported: number): void {
    const snapshot = this.snapshot(read, exported, this.now());
    if (this.output.isTTY) this.output.write(`\r\x1b[K${progressBar(snapshot)}\n`);
    const seconds = (snapshot.elapsedMs / 1000).toFixed(1);
    const rate = Math.round(recordsPerSecond(snapshot));
    this.output.write(`export: done, ${read} records read, ${exported} exported in ${seconds}s (${rate} records/s)\n`);
  }

  private snapshot(read: number, exported: number, at: number): ProgressSnapshot {
    return { read, exported, total: this.total, elapsedMs: at - this.startedAt };
  }
}
