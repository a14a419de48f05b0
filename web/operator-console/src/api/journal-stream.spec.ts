/// <reference types="jest" />
import { JournalState } from '../domain/journal';
import { followJournal } from './journal-stream';

const frame = (position: number, type = 'FlowApproved') =>
  `id: ${position}\nevent: ${type}\ndata: ${JSON.stringify({ position, flow_id: 'f', flow_kind: 'onboard', type, data: {}, actor: 'a', recorded_at: '2025-01-01T00:00:00.000Z' })}\n\n`;

/** A fake control plane: each call answers the next script; an open stream ends only when aborted. */
function fakeFetch(scripts: (() => Response | Promise<Response>)[]) {
  const calls: Headers[] = [];
  const get = jest.fn(async (_url: string, init?: RequestInit) => {
    calls.push(new Headers(init?.headers));
    const next = scripts.shift();
    if (!next) throw new TypeError('no more answers');
    return next();
  });
  return { get: get as unknown as typeof fetch, calls };
}

function stream(chunks: string[], stayOpen: boolean, signal?: { current?: AbortSignal }) {
  return () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          if (!stayOpen) controller.close();
          signal?.current?.addEventListener('abort', () => controller.error(new Error('aborted')));
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(check()).toBe(true);
}

function follow(get: typeof fetch) {
  const stop = new AbortController();
  const waits: number[] = [];
  let state: JournalState | undefined;
  followJournal({
    url: '/api/control-plane/v1/tenants/acme/events',
    token: () => 'T',
    onChange: (next) => {
      state = next;
    },
    signal: stop.signal,
    fetch: get,
    wait: (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setTimeout(resolve, 0));
    },
  });
  return { stop, waits, state: () => state as JournalState };
}

describe('followJournal', () => {
  it('resumes after a closed stream with Last-Event-ID, honouring retry:, without duplicates', async () => {
    const open: { current?: AbortSignal } = {};
    const { get, calls } = fakeFetch([
      stream(['retry: 2000\n\n', frame(1), frame(2)], false),
      stream([frame(2), frame(3), ': heartbeat\n\n'], true, open),
    ]);
    const run = follow(get);
    open.current = run.stop.signal;
    await until(() => run.state().entries.length === 3 && run.state().connection.status === 'live');
    expect(run.state().entries.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(run.waits).toEqual([2000]);
    expect(calls[0].get('authorization')).toBe('Bearer T');
    expect(calls[0].get('last-event-id')).toBeNull();
    expect(calls[1].get('last-event-id')).toBe('2');
    run.stop.abort();
  });

  it('backs off 1 s, 2 s, 4 s while the network is down', async () => {
    const { get } = fakeFetch([]);
    const run = follow(get);
    await until(() => run.waits.length >= 4);
    run.stop.abort();
    expect(run.waits.slice(0, 4)).toEqual([1000, 2000, 4000, 8000]);
  });

  it('stops on a refusal a retry would not change', async () => {
    const { get } = fakeFetch([
      () =>
        new Response(JSON.stringify({ error: 'not_found', detail: 'no tenant acme' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    ]);
    const run = follow(get);
    await until(() => run.state().connection.status === 'stopped');
    expect(run.state().connection).toEqual({ status: 'stopped', reason: 'not_found: no tenant acme' });
    expect(run.waits).toEqual([]);
  });
});
