import { Badge } from '@mantine/core';
import { DECISION_COLOURS, Decision, RISK_COLOURS, riskLevel } from '../domain/risk';

/** A score and its level in the level's colour; "unscored" while there is none. */
export function RiskBadge({ score }: { score: number | null | undefined }) {
  const level = riskLevel(score);
  if (level === null)
    return (
      <Badge color={RISK_COLOURS.unscored} variant="outline">
        unscored
      </Badge>
    );
  return (
    <Badge color={RISK_COLOURS[level]} variant={level === 'none' ? 'light' : 'filled'}>
      {score} {level}
    </Badge>
  );
}

export function DecisionBadge({ decision }: { decision: Decision }) {
  return (
    <Badge color={DECISION_COLOURS[decision] ?? 'gray'} variant="light">
      {decision}
    </Badge>
  );
}

const STATE_COLOURS: Record<string, string> = { active: 'green', idle: 'yellow', ended: 'gray' };

export function StateBadge({ state }: { state: string }) {
  return (
    <Badge color={STATE_COLOURS[state] ?? 'gray'} variant="light">
      {state}
    </Badge>
  );
}
