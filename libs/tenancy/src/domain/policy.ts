export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/** Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries spread out. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + (exp / 2) * random());
}

export interface Cell {
  id: string;
  region: string;
  capacity: number;
  admin_url: string;
}

/** The cell of the region with the most spare capacity; null when none has room (`no_placeable_cell`). */
export function chooseCell(cells: Cell[], region: string, used: Record<string, number>): Cell | null {
  const candidates = cells
    .filter((c) => c.region === region && (used[c.id] ?? 0) < c.capacity)
    .sort((a, b) => b.capacity - (used[b.id] ?? 0) - (a.capacity - (used[a.id] ?? 0)) || a.id.localeCompare(b.id));
  return candidates[0] ?? null;
}
