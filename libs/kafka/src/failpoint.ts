// Test-only hooks: the one place in libs that reads process.env directly. AGENTWATCH_FAILPOINT and
// AGENTWATCH_DELAYPOINT are set by fault tests on the process they spawn, never by a deployment, so
// they stay out of the validated configuration (no app's schema names them).

/**
 * Crash injection for fault tests: with AGENTWATCH_FAILPOINT=<name> the process dies by SIGKILL at
 * that point, exactly as a power cut would leave it. Unset (always, in production) it does nothing.
 */
export function failpoint(name: string): void {
  if (process.env.AGENTWATCH_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}

/**
 * Delay injection for fault tests: with AGENTWATCH_DELAYPOINT=<name>:<ms> the process waits that long
 * at that point (a slow batch, say). Unset (always, in production) it returns at once.
 */
export async function delayPoint(name: string): Promise<void> {
  const [point, ms] = (process.env.AGENTWATCH_DELAYPOINT ?? '').split(':');
  if (point === name && Number(ms) > 0) await new Promise((resolve) => setTimeout(resolve, Number(ms)));
}
