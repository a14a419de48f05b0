export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical'] as const;

export type RiskLevelCounts = Record<(typeof RISK_LEVELS)[number] | 'unscored', number>;

/**
 * Every level, zero when absent. Only scores are counted by level, so `unscored` is what the total
 * leaves: events not scored yet. A score stored before its event is projected counts at once, so
 * the difference never goes below zero.
 */
export function riskLevelCounts(total: number, scored: Readonly<Record<string, number>>): RiskLevelCounts {
  const levels = Object.fromEntries(RISK_LEVELS.map((level) => [level, scored[level] ?? 0]));
  const counted = RISK_LEVELS.reduce((sum, level) => sum + (scored[level] ?? 0), 0);
  return { ...levels, unscored: Math.max(0, total - counted) } as RiskLevelCounts;
}
