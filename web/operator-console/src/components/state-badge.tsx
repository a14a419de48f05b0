import { Badge } from '@mantine/core';

const STATE_COLORS: Record<string, string> = {
  'pending-approval': 'yellow',
  active: 'green',
  failed: 'orange',
  paused: 'red',
  rejected: 'gray',
  cancelled: 'gray',
  deprovisioning: 'grape',
  deprovisioned: 'dark',
};

const PRESENTATION_COLORS: Record<string, string> = {
  'awaiting-approval': 'yellow',
  'backing-off': 'orange',
  'needs-resume': 'red',
  'waiting-for-daemon': 'cyan',
  live: 'green',
  compensating: 'grape',
  done: 'gray',
};

export function StateBadge({ state }: { state: string }) {
  return (
    <Badge variant="light" color={STATE_COLORS[state] ?? 'blue'} tt="none">
      {state}
    </Badge>
  );
}

export function PresentationBadge({ presentation }: { presentation: string }) {
  return (
    <Badge variant="outline" color={PRESENTATION_COLORS[presentation] ?? 'blue'} tt="none">
      {presentation}
    </Badge>
  );
}
