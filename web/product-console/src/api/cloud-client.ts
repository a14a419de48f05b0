import { useMemo, useRef } from 'react';
import type { paths as CloudPaths } from '../../../api/cloud';
import type { paths as ScoringPaths } from '../../../api/scoring';
import { apiClient } from '../../../shared/api-client';
import { useAuth } from '../../../shared/auth';

/**
 * The cloud API with the signed-in user's token, read on every request. A 401 means the token is no
 * longer good: sign in again. A 403 is left to the caller (an identity of no organization yet).
 */
export function useCloudClient() {
  const { token, signIn } = useAuth();
  const current = useRef(token);
  current.current = token;
  return useMemo(
    () =>
      apiClient<CloudPaths>(
        '/api/cloud',
        () => ({ authorization: `Bearer ${current.current}` }),
        (status) => {
          if (status === 401) void signIn();
        },
      ),
    [signIn],
  );
}

/** The scoring API with the session key `key()` holds now; a 401 (expired or revoked key) calls `renew`. */
export function useScoringClient(key: () => string | null, renew: () => void) {
  const current = useRef({ key, renew });
  current.current = { key, renew };
  return useMemo(
    () =>
      apiClient<ScoringPaths>(
        '/api/scoring',
        (): Record<string, string> => {
          const value = current.current.key();
          return value ? { 'x-api-key': value } : {};
        },
        (status) => {
          if (status === 401) current.current.renew();
        },
      ),
    [],
  );
}
