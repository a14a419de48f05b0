import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import type { CloudClient } from './api-context';
import type { Tenant } from './types';

/** The caller's organization; an ApiError 404 while it has none. */
export function useTenant(cloud: CloudClient) {
  return useQuery({
    queryKey: ['tenant'],
    queryFn: () => answer<Tenant>(cloud.GET('/v1/tenant')),
    retry: (failures, error) => failures < 1 && (error as { status?: number }).status !== 404,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCreateTenant(cloud: CloudClient) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => answer<Tenant>(cloud.POST('/v1/tenant', { body: { name } })),
    onSuccess: (tenant) => {
      queries.setQueryData(['tenant'], tenant);
      void queries.invalidateQueries({ queryKey: ['session-key'] });
    },
  });
}
