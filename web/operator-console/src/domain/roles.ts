// Who may do what in the console. The control plane decides; these only hide what it would refuse.

export type Role = 'operator' | 'viewer';

/** The role claim of the id token; anything but `operator` reads only. */
export function roleOf(profile: { role?: unknown } | undefined): Role {
  return profile?.role === 'operator' ? 'operator' : 'viewer';
}

export const canWrite = (role: Role) => role === 'operator';

/** Four eyes: an operator approves a request someone else made. */
export const canApprove = (role: Role, subject: string | undefined, requester: string) =>
  canWrite(role) && subject !== undefined && subject !== requester;

/** The requester sees the request, and who must act on it, but no approve button. */
export const isRequester = (subject: string | undefined, requester: string) =>
  subject !== undefined && subject === requester;
