// How long the journal stream waits before reconnecting: 1 s, 2 s, 4 s … doubling per failed attempt
// in a row, capped at 30 s; the server's `retry:` field is a floor it asks for (the control plane
// sends 2000), so it wins when it is longer than our own schedule.

export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;

/** The wait before reconnect attempt `attempt` (1 for the first reconnect after a drop). */
export function reconnectDelay(attempt: number, serverRetryMs: number | null = null): number {
  const exponent = Math.max(0, attempt - 1);
  // 2^5 s already passes the cap: no need to let the power grow without bound.
  const own = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(exponent, 16));
  return Math.max(own, serverRetryMs ?? 0);
}
