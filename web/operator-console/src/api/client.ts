import { Client } from 'openapi-fetch';
import { useMemo, useRef } from 'react';
import type { paths } from '../../../api/control-plane';
import { ApiError, apiClient } from '../../../shared/api-client';
import { useAuth } from '../../../shared/auth';

export type ControlPlane = Client<paths>;

export const CONTROL_PLANE_PREFIX = '/api/control-plane';

/** The fixed refusal of a missing or expired operator token: signing in again helps, unlike any other 403. */
export const TOKEN_REQUIRED = 'a valid operator token is required';

export const needsSignIn = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.body.detail === TOKEN_REQUIRED;

/**
 * The control plane behind the console's proxy, with the signed-in operator's token. A 403 is not a
 * reason to sign in again here (a viewer on a write route, self-approval): views show it as it is.
 */
export function useControlPlane(): ControlPlane {
  const { token } = useAuth();
  const current = useRef(token);
  current.current = token;
  return useMemo(
    () => apiClient<paths>(CONTROL_PLANE_PREFIX, () => ({ authorization: `Bearer ${current.current}` })),
    [],
  );
}

/** The bearer token as of now, for requests outside the typed client (the event stream). */
export function useToken(): () => string {
  const { token } = useAuth();
  const current = useRef(token);
  current.current = token;
  return useMemo(() => () => current.current, []);
}
