import { useQuery } from '@tanstack/react-query';
import { answer } from '../../../shared/api-client';
import { useApis } from './api-context';
import type { Justification, ScoreDetail } from './types';

const PENDING_POLL_MS = 3000;

/** The event's score detail, polled while it is pending so it appears once the worker scored it. */
export function useScore(eventId: string) {
  const { scoring, sessionKeyId, scoringHeader: header } = useApis();
  return useQuery({
    queryKey: ['score', eventId, sessionKeyId],
    queryFn: () =>
      answer<ScoreDetail>(scoring.GET('/scores/event/{event_id}', { params: { header, path: { event_id: eventId } } })),
    enabled: sessionKeyId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}

/** The justification report: only a scored event has one (404 while pending or failed). */
export function useJustification(eventId: string, scored: boolean) {
  const { scoring, sessionKeyId, scoringHeader: header } = useApis();
  return useQuery({
    queryKey: ['justification', eventId, sessionKeyId],
    queryFn: () =>
      answer<Justification>(scoring.GET('/justification', { params: { header, query: { event_id: eventId } } })),
    enabled: scored && sessionKeyId !== null,
  });
}
