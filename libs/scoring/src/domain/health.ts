export type DependencyStatus = 'ok' | 'unavailable' | 'not_configured';

export interface DependencyHealth {
  status: DependencyStatus;
  latency_ms: number;
  error: string | null;
}

export type Dependency = 'relational_db' | 'cache' | 'graph_db' | 'llm_service';

/** Without these nothing can be stored or scored; the cache and the model only improve scores. */
export const CRITICAL: readonly Dependency[] = ['relational_db', 'graph_db'];

export function overallStatus(checks: Record<Dependency, DependencyHealth>): 'ok' | 'degraded' | 'unhealthy' {
  const entries = Object.entries(checks) as [Dependency, DependencyHealth][];
  if (entries.some(([name, check]) => CRITICAL.includes(name) && check.status === 'unavailable')) return 'unhealthy';
  if (entries.some(([, check]) => check.status === 'unavailable')) return 'degraded';
  return 'ok';
}
