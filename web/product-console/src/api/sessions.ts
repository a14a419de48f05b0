import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import { Filters, SESSION_FILTERS, SESSION_STATES } from '../domain/filters';
import { useApis } from './api-context';
import type { SessionChildren, SessionDetail, SessionEventPage, SessionPage } from './types';

export type SessionFilters = Filters<(typeof SESSION_FILTERS)[number]>;

const TIMELINE_PAGE = 500;

export function useSessions(filters: SessionFilters, cursor: string | null) {
  const { cloud } = useApis();
  const { state, root_only, ...text } = filters;
  const query = {
    ...text,
    state: state as (typeof SESSION_STATES)[number] | undefined,
    root_only: root_only === 'true' ? ('true' as const) : undefined,
    limit: 100,
    ...(cursor ? { cursor } : {}),
  };
  return useQuery({
    queryKey: ['sessions', filters, cursor],
    queryFn: () => answer<SessionPage>(cloud.GET('/v1/sessions', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useSession(id: string) {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['session', id],
    queryFn: () => answer<SessionDetail>(cloud.GET('/v1/sessions/{id}', { params: { path: { id } } })),
  });
}

/** A child session's own children, fetched when the tree is opened there. */
export function useSessionChildren(id: string, enabled: boolean) {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['session-children', id],
    queryFn: () => answer<SessionChildren>(cloud.GET('/v1/sessions/{id}/children', { params: { path: { id } } })),
    enabled,
  });
}

/** The session's events in timestamp order, a page at a time ("Load more events"). */
export function useSessionTimeline(id: string) {
  const { cloud } = useApis();
  return useInfiniteQuery({
    queryKey: ['session-events', id],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      answer<SessionEventPage>(
        cloud.GET('/v1/sessions/{id}/events', {
          params: { path: { id }, query: { limit: TIMELINE_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (page) => page.next_cursor,
  });
}
