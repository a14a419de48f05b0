export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical'] as const;

export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The scoring API's levels: none 0, low 1–24, medium 25–49, high 50–74, critical 75–100; null while unscored. */
export function riskLevel(score: number | null | undefined): RiskLevel | null {
  if (score === null || score === undefined || Number.isNaN(score)) return null;
  if (score <= 0) return 'none';
  if (score < 25) return 'low';
  if (score < 50) return 'medium';
  if (score < 75) return 'high';
  return 'critical';
}

/** Mantine colour names, from calm to alarming. */
export const RISK_COLOURS: Record<RiskLevel | 'unscored', string> = {
  none: 'gray',
  low: 'teal',
  medium: 'yellow',
  high: 'orange',
  critical: 'red',
  unscored: 'dark',
};

export const DECISIONS = ['allow', 'warn', 'block'] as const;

export type Decision = (typeof DECISIONS)[number];

export const DECISION_COLOURS: Record<Decision, string> = { allow: 'green', warn: 'yellow', block: 'red' };
