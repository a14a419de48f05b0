import { Badge } from '@mantine/core';
import { ConsoleFrame } from '../../shared/console-frame';
import { useSession } from './api/session';

export const CONSOLE_TITLE = 'agentwatch operators';

/** The shared frame, with the signed-in role beside the title. */
export function OperatorFrame() {
  const { role } = useSession();
  return (
    <ConsoleFrame
      title={CONSOLE_TITLE}
      nav={[{ label: 'Tenants', to: '/tenants' }]}
      badge={
        <Badge variant="light" color={role === 'operator' ? 'blue' : 'gray'} aria-label={`Role: ${role}`}>
          {role}
        </Badge>
      }
    />
  );
}
