import { useEffect, useState } from 'react';
import { initialJournal, JournalState } from '../domain/journal';
import { CONTROL_PLANE_PREFIX, useToken } from './client';
import { followJournal } from './journal-stream';

/** The tenant's flow journal, live: history first, then each new event, across reconnects. */
export function useFlowJournal(slug: string): JournalState {
  const token = useToken();
  const [state, setState] = useState<JournalState>(initialJournal);
  useEffect(() => {
    const stop = new AbortController();
    setState(initialJournal);
    followJournal({
      url: `${CONTROL_PLANE_PREFIX}/v1/tenants/${encodeURIComponent(slug)}/events`,
      token,
      onChange: setState,
      signal: stop.signal,
    });
    return () => stop.abort();
  }, [slug, token]);
  return state;
}
