import { z } from 'zod';

export const dependencyHealth = z.object({
  status: z.enum(['ok', 'unavailable', 'not_configured']),
  latency_ms: z.number().nonnegative(),
  error: z.string().nullable(),
});
export type DependencyHealth = z.infer<typeof dependencyHealth>;

export type Dependency = 'relational_db' | 'cache' | 'graph_db' | 'llm_service';

/** GET /health/detailed: 200 while `ok` or `degraded`, 503 with the same body when `unhealthy`. */
export const detailedHealth = z.object({
  status: z.enum(['ok', 'degraded', 'unhealthy']),
  relational_db: dependencyHealth,
  cache: dependencyHealth,
  graph_db: dependencyHealth,
  llm_service: dependencyHealth,
});
export type DetailedHealth = z.infer<typeof detailedHealth>;

/** Without these nothing can be stored or scored; the cache and the model only improve scores. */
export const CRITICAL: readonly Dependency[] = ['relational_db', 'graph_db'];

export function overallStatus(checks: Record<Dependency, DependencyHealth>): DetailedHealth['status'] {
  const entries = Object.entries(checks) as [Dependency, DependencyHealth][];
  if (entries.some(([name, check]) => CRITICAL.includes(name) && check.status === 'unavailable')) return 'unhealthy';
  if (entries.some(([, check]) => check.status === 'unavailable')) return 'degraded';
  return 'ok';
}

export const detailedHealthOf = (checks: Record<Dependency, DependencyHealth>): DetailedHealth => ({
  status: overallStatus(checks),
  ...checks,
});
