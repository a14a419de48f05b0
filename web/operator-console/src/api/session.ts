import { useAuth } from '../../../shared/auth';
import { canWrite, Role, roleOf } from '../domain/roles';

export interface Session {
  role: Role;
  /** The id token's subject: what the control plane records as requester and approver. */
  subject: string | undefined;
  canWrite: boolean;
}

export function useSession(): Session {
  const { user } = useAuth();
  const role = roleOf(user?.profile as { role?: unknown } | undefined);
  return { role, subject: user?.profile.sub, canWrite: canWrite(role) };
}
