// Follows a tenant's flow journal over GET …/events. EventSource cannot send the bearer token, so
// this is fetch + eventsource-parser: it resumes with Last-Event-ID after a drop or a closed
// stream, waits as the journal reducer schedules (domain/backoff.ts), and stops on a refusal that
// a retry would not change (403, 404).

import { createParser } from 'eventsource-parser';
import { entryOf, initialJournal, JournalAction, JournalState, journalReducer } from '../domain/journal';

/** The control plane sends a heartbeat every 15 s by default: three missed ones mean the connection is gone. */
export const IDLE_TIMEOUT_MS = 45_000;

export interface FollowOptions {
  url: string;
  token: () => string;
  onChange: (state: JournalState) => void;
  signal: AbortSignal;
  fetch?: typeof fetch;
  idleTimeoutMs?: number;
  /** Waits before a reconnect; resolves early when the signal aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

class Refused extends Error {}

async function refusalOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: string; detail?: string } | null;
  if (body?.error) return body.detail ? `${body.error}: ${body.detail}` : body.error;
  return `${response.status} ${response.statusText}`.trim();
}

export function followJournal({
  url,
  token,
  onChange,
  signal,
  fetch: get = fetch,
  idleTimeoutMs = IDLE_TIMEOUT_MS,
  wait = sleep,
}: FollowOptions): void {
  let state = initialJournal;
  const apply = (action: JournalAction) => {
    const next = journalReducer(state, action);
    if (next !== state && !signal.aborted) {
      state = next;
      onChange(state);
    }
  };

  const parser = createParser({
    onEvent: (message) => {
      const entry = entryOf(message);
      if (entry) apply({ type: 'event', entry });
    },
    onRetry: (ms) => apply({ type: 'retry', ms }),
  });

  async function readOnce(): Promise<void> {
    const attempt = new AbortController();
    const abort = () => attempt.abort();
    signal.addEventListener('abort', abort);
    let idle: ReturnType<typeof setTimeout> | undefined;
    let silent = false;
    const awake = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        silent = true;
        abort();
      }, idleTimeoutMs);
    };
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${token()}`, accept: 'text/event-stream' };
      if (state.lastEventId) headers['last-event-id'] = state.lastEventId;
      awake();
      const response = await get(url, { headers, signal: attempt.signal, cache: 'no-store' });
      if (response.status === 403 || response.status === 404) throw new Refused(await refusalOf(response));
      if (!response.ok || !response.body) throw new Error(await refusalOf(response));
      apply({ type: 'open' });
      parser.reset();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        awake();
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      throw new Error('the stream closed');
    } catch (error) {
      if (silent) throw new Error(`nothing heard for ${Math.round(idleTimeoutMs / 1000)} s`);
      throw error;
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', abort);
    }
  }

  async function loop(): Promise<void> {
    while (!signal.aborted) {
      apply({ type: 'connect' });
      try {
        await readOnce();
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof Refused) {
          apply({ type: 'stop', reason: error.message });
          return;
        }
        apply({ type: 'drop', reason: error instanceof Error ? error.message : String(error) });
        await wait(state.connection.status === 'reconnecting' ? state.connection.delayMs : 1000, signal);
      }
    }
  }

  onChange(state);
  void loop();
}
