import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { answer } from '../../../shared/api-client';
import { useAuth } from '../../../shared/auth';
import type { CloudClient } from './api-context';
import type { CreatedApiKey } from './types';

const TTL_SECONDS = 3600;
// A fresh key ten minutes before the old one expires; the old one is revoked once the new one is held.
const RENEW_MS = (TTL_SECONDS - 600) * 1000;
const MIN_KEY_AGE_MS = 30_000;

/** The console's own API keys are named so; the API keys page marks them. */
export const SESSION_KEY_PREFIX = 'console session ';

/**
 * The short-lived scoring-API key of this console session (ADR 0014): created after sign-in, held in
 * memory only, renewed before it expires, revoked on sign-out. `enabled` waits for the organization.
 */
export function useSessionKey(cloud: CloudClient, user: string, enabled: boolean) {
  const { onSignOut } = useAuth();
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: ['session-key', user],
    queryFn: () =>
      answer<CreatedApiKey>(
        cloud.POST('/v1/api-keys', { body: { name: `${SESSION_KEY_PREFIX}${user}`, ttl_seconds: TTL_SECONDS } }),
      ),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchInterval: RENEW_MS,
    refetchIntervalInBackground: true,
    retry: (failures, error) => failures < 1 && (error as { status?: number }).status !== 403,
  });

  const held = useRef<CreatedApiKey | null>(null);
  const revoke = useCallback(
    async (id: string) => {
      await cloud.DELETE('/v1/api-keys/{id}', { params: { path: { id } } });
    },
    [cloud],
  );

  useEffect(() => {
    const previous = held.current;
    held.current = query.data ?? null;
    if (previous && query.data && previous.id !== query.data.id) void revoke(previous.id);
  }, [query.data, revoke]);

  useEffect(
    () =>
      onSignOut(async () => {
        if (held.current) await revoke(held.current.id);
        held.current = null;
      }),
    [onSignOut, revoke],
  );

  // A key the scoring API refuses (expired, revoked elsewhere) is replaced, but not over and over: a key
  // refused right after it was made points at something a new key will not fix.
  const renew = useCallback(() => {
    if (query.isFetching || Date.now() - query.dataUpdatedAt < MIN_KEY_AGE_MS) return;
    void queries.invalidateQueries({ queryKey: ['session-key', user] });
  }, [queries, query.isFetching, query.dataUpdatedAt, user]);

  return { key: query.data ?? null, error: query.error, renew, held };
}
