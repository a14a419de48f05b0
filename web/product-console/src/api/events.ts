import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import { ACTION_TYPES, EVENT_FILTERS, Filters } from '../domain/filters';
import type { Decision } from '../domain/risk';
import { useApis } from './api-context';
import type { EventDetail, EventPage, EventStats } from './types';

export type EventFilters = Filters<(typeof EVENT_FILTERS)[number]>;

const STATS_REFRESH_MS = 5000;

/** The query of GET /v1/events: the URL's filters, risks as numbers. */
function eventQuery(filters: EventFilters, cursor: string | null, limit: number) {
  const { min_risk, max_risk, action_type, decision, ...text } = filters;
  return {
    ...text,
    action_type: action_type as (typeof ACTION_TYPES)[number] | undefined,
    decision: decision as Decision | undefined,
    min_risk: min_risk === undefined ? undefined : Number(min_risk),
    max_risk: max_risk === undefined ? undefined : Number(max_risk),
    limit,
    ...(cursor ? { cursor } : {}),
  };
}

/** One page of the explorer; the previous page stays shown while the next loads. */
export function useEvents(filters: EventFilters, cursor: string | null, limit = 100) {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['events', filters, cursor, limit],
    queryFn: () =>
      answer<EventPage>(cloud.GET('/v1/events', { params: { query: eventQuery(filters, cursor, limit) } })),
    placeholderData: keepPreviousData,
  });
}

/** The page fetcher of an export: the same filters, any cursor. */
export function useEventPages(filters: EventFilters) {
  const { cloud } = useApis();
  return async (cursor: string | null, limit: number) => {
    const page = await answer<EventPage>(
      cloud.GET('/v1/events', { params: { query: eventQuery(filters, cursor, limit) } }),
    );
    return { rows: page.events, next_cursor: page.next_cursor };
  };
}

export function useEvent(id: string) {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['event', id],
    queryFn: () => answer<EventDetail>(cloud.GET('/v1/events/{id}', { params: { path: { id } } })),
  });
}

/** The last 24 hours, refreshed every few seconds so new activity shows without a reload. */
export function useEventStats() {
  const { cloud } = useApis();
  return useQuery({
    queryKey: ['event-stats'],
    queryFn: () => answer<EventStats>(cloud.GET('/v1/events/stats')),
    refetchInterval: STATS_REFRESH_MS,
  });
}
