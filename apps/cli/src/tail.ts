// `agentwatch tail <slug>`: follows a tenant flow's journal (the control plane's SSE stream) for a
// person, one line per event, reconnecting with Last-Event-ID where it left off.

export interface TailArgs {
  url: string;
  token?: string;
}

/** A journal event as the control plane's stream sends it in `data:`. */
export interface JournalEvent {
  position: number;
  type: string;
  flow_kind: string;
  actor: string;
  recorded_at: string;
  data: Record<string, unknown>;
}

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
}

const STATE_AFTER: Record<string, string> = {
  TenantRequested: 'requested',
  ApprovalRequested: 'pending-approval',
  CellPlaced: 'provisioned',
  DatabaseMigrated: 'db-ready',
  RouteRecorded: 'routed',
  FirstCheckinAwaited: 'awaiting-first-checkin',
  FirstCheckinReceived: 'active',
  StepFailed: 'failed',
  RetriesExhausted: 'paused',
  FlowRejected: 'rejected',
  FlowCancelled: 'cancelled',
  DeprovisionRequested: 'pending-approval',
  DatabaseDropped: 'deprovisioned',
  TenantDeprovisioned: 'deprovisioned',
};

/** The flow's state once this event is applied, where the event changes it. */
export function stateAfter(event: Pick<JournalEvent, 'type' | 'flow_kind'>): string | null {
  if (event.type === 'FlowApproved') return event.flow_kind === 'offboard' ? 'deprovisioning' : 'provisioning';
  return STATE_AFTER[event.type] ?? null;
}

const colorOf = (state: string) =>
  ['active', 'deprovisioned'].includes(state)
    ? 32
    : ['failed', 'paused', 'rejected', 'cancelled'].includes(state)
      ? 31
      : state === 'pending-approval'
        ? 33
        : 36;

export function formatEvent(event: JournalEvent, { color }: { color: boolean }): string {
  const state = stateAfter(event);
  const shown = state && color ? `\u001b[${colorOf(state)}m${state}\u001b[0m` : state;
  const detail = Object.keys(event.data).length ? ` ${JSON.stringify(event.data)}` : '';
  return `${event.recorded_at} #${event.position} ${event.flow_kind} ${event.type}${shown ? ` → ${shown}` : ''} by ${event.actor}${detail}`;
}

/**
 * Splits the complete frames off a text buffer of an event stream; `rest` is the incomplete tail
 * to prepend to the next chunk. Comment lines (`:`) and frames without data (`retry:`) carry nothing.
 */
export function takeFrames(buffer: string): { frames: SseFrame[]; rest: string } {
  const frames: SseFrame[] = [];
  let rest = buffer;
  for (let end = rest.indexOf('\n\n'); end >= 0; end = rest.indexOf('\n\n')) {
    const fields = rest
      .slice(0, end)
      .split('\n')
      .filter((line) => !line.startsWith(':') && line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
    rest = rest.slice(end + 2);
    const frame: SseFrame = Object.fromEntries(fields);
    if (frame.data !== undefined) frames.push(frame);
  }
  return { frames, rest };
}

const RECONNECT_MS = 2000;

/** Runs until interrupted; exits 1 on an answer that retrying cannot change (403, 404). */
export async function tail(slug: string, args: TailArgs): Promise<never> {
  let lastId: string | undefined;
  for (;;) {
    try {
      const response = await fetch(`${args.url}/v1/tenants/${encodeURIComponent(slug)}/events`, {
        headers: {
          accept: 'text/event-stream',
          ...(args.token ? { authorization: `Bearer ${args.token}` } : {}),
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
      });
      if (response.status !== 200 || !response.body) {
        console.error(`agentwatch: ${response.status} ${await response.text()}`);
        if (response.status < 500) process.exit(1);
      } else {
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          const { frames, rest } = takeFrames(buffer + decoder.decode(chunk, { stream: true }));
          buffer = rest;
          for (const frame of frames) {
            lastId = frame.id ?? lastId;
            console.log(formatEvent(JSON.parse(frame.data as string), { color: process.stdout.isTTY === true }));
          }
        }
        console.error('agentwatch: stream ended; reconnecting');
      }
    } catch (error) {
      console.error(`agentwatch: stream interrupted (${(error as Error).message}); reconnecting`);
    }
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}
