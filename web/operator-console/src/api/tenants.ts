import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import { ControlPlane, useControlPlane } from './client';
import { FlowSummary, LISTABLE_STATES, MintedToken, TenantRequestBody } from './types';

export const PAGE_SIZE = 50;

export const tenantKeys = {
  all: ['tenants'] as const,
  list: (state: string | null) => ['tenants', 'list', state] as const,
  detail: (slug: string) => ['tenants', 'detail', slug] as const,
};

export type ListableState = (typeof LISTABLE_STATES)[number];

export function useTenantList(state: ListableState | null) {
  const client = useControlPlane();
  return useInfiniteQuery({
    queryKey: tenantKeys.list(state),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      answer(
        client.GET('/v1/tenants', {
          params: {
            query: { limit: PAGE_SIZE, ...(state ? { state } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (page) => page.next_cursor,
  });
}

export function useTenant(slug: string) {
  const client = useControlPlane();
  return useQuery({
    queryKey: tenantKeys.detail(slug),
    queryFn: () => answer(client.GET('/v1/tenants/{slug}', { params: { path: { slug } } })),
  });
}

export function useRequestTenant() {
  const client = useControlPlane();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: TenantRequestBody) => answer(client.POST('/v1/tenants', { body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: tenantKeys.all }),
  });
}

export type FlowCommand =
  | { type: 'approve' }
  | { type: 'reject'; reason: string }
  | { type: 'cancel'; reason: string }
  | { type: 'resume' }
  | { type: 'deprovision'; justification: string };

function run(client: ControlPlane, slug: string, command: FlowCommand): Promise<FlowSummary> {
  const path = { params: { path: { slug } } };
  switch (command.type) {
    case 'approve':
      return answer(client.POST('/v1/tenants/{slug}/approve', path));
    case 'reject':
      return answer(client.POST('/v1/tenants/{slug}/reject', { ...path, body: { reason: command.reason } }));
    case 'cancel':
      return answer(client.POST('/v1/tenants/{slug}/cancel', { ...path, body: { reason: command.reason } }));
    case 'resume':
      return answer(client.POST('/v1/tenants/{slug}/resume', { ...path, body: {} }));
    case 'deprovision':
      return answer(
        client.POST('/v1/tenants/{slug}/deprovision', { ...path, body: { justification: command.justification } }),
      );
  }
}

/** A command on the tenant's current flow; the detail and the list are read again after it. */
export function useFlowCommand(slug: string) {
  const client = useControlPlane();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (command: FlowCommand) => run(client, slug, command),
    onSettled: () => queries.invalidateQueries({ queryKey: tenantKeys.all }),
  });
}

/**
 * Mints an ingest token. Deliberately no useMutation: the mutation cache would keep the raw token
 * after the dialog closes; the caller holds it in the dialog's state only.
 */
export function mintIngestToken(client: ControlPlane, slug: string): Promise<MintedToken> {
  return answer(client.POST('/v1/tenants/{slug}/tokens', { params: { path: { slug } } }));
}
