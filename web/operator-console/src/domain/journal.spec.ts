/// <reference types="jest" />
import {
  connectionText,
  entryOf,
  initialJournal,
  JournalAction,
  JournalEntry,
  JournalState,
  journalReducer,
} from './journal';

const entry = (position: number, type = 'FlowApproved'): JournalEntry => ({
  id: String(position),
  position,
  flowId: 'f1',
  flowKind: 'onboard',
  type,
  data: {},
  actor: 'alice',
  recordedAt: '2025-01-01T00:00:00.000Z',
});

const run = (actions: JournalAction[], from: JournalState = initialJournal) => actions.reduce(journalReducer, from);
const events = (...positions: number[]): JournalAction[] => positions.map((p) => ({ type: 'event', entry: entry(p) }));

describe('journalReducer', () => {
  it('keeps events in position order and remembers the newest id', () => {
    const state = run([{ type: 'open' }, ...events(3, 5, 4)]);
    expect(state.entries.map((e) => e.position)).toEqual([3, 4, 5]);
    expect(state.lastEventId).toBe('5');
  });

  it('drops an event it already holds: a replay after a reconnect adds nothing', () => {
    const first = run([{ type: 'open' }, ...events(1, 2, 3)]);
    const replayed = run(
      [{ type: 'drop', reason: 'closed' }, { type: 'connect' }, { type: 'open' }, ...events(2, 3, 4)],
      first,
    );
    expect(replayed.entries.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
  });

  it('returns the same state for a duplicate, so nothing re-renders', () => {
    const state = run([{ type: 'open' }, ...events(1)]);
    expect(journalReducer(state, events(1)[0])).toBe(state);
  });

  it('backs off 1 s, 2 s, 4 s over drops in a row and starts again once open', () => {
    const drop: JournalAction = { type: 'drop', reason: 'network' };
    const third = run([drop, { type: 'connect' }, drop, { type: 'connect' }, drop]);
    expect(third.connection).toEqual({ status: 'reconnecting', attempt: 3, delayMs: 4000, reason: 'network' });
    const again = run([{ type: 'connect' }, { type: 'open' }, drop], third);
    expect(again.connection).toMatchObject({ attempt: 1, delayMs: 1000 });
  });

  it("waits at least the server's retry field", () => {
    const state = run([{ type: 'open' }, { type: 'retry', ms: 2000 }, { type: 'drop', reason: 'closed' }]);
    expect(state.connection).toMatchObject({ attempt: 1, delayMs: 2000 });
  });

  it('ignores a retry field that is no duration', () => {
    expect(run([{ type: 'retry', ms: Number.NaN }]).serverRetryMs).toBeNull();
  });

  it('says which attempt a connection is while it reconnects', () => {
    const state = run([{ type: 'drop', reason: 'x' }, { type: 'drop', reason: 'x' }, { type: 'connect' }]);
    expect(state.connection).toEqual({ status: 'connecting', attempt: 2 });
  });

  it('stays stopped: a late drop or connect schedules nothing', () => {
    const stopped = run([{ type: 'stop', reason: 'not_found: no tenant x' }]);
    expect(run([{ type: 'drop', reason: 'x' }, { type: 'connect' }], stopped)).toBe(stopped);
  });
});

describe('entryOf', () => {
  const data = JSON.stringify({
    position: 7,
    flow_id: 'f1',
    flow_kind: 'offboard',
    slug: 'acme',
    version: 2,
    type: 'FlowApproved',
    data: { approver: 'bob' },
    actor: 'bob',
    recorded_at: '2025-01-01T00:00:00.000Z',
  });

  it('reads the stream frame of the control plane', () => {
    expect(entryOf({ id: '7', event: 'FlowApproved', data })).toEqual({
      id: '7',
      position: 7,
      flowId: 'f1',
      flowKind: 'offboard',
      type: 'FlowApproved',
      data: { approver: 'bob' },
      actor: 'bob',
      recordedAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('refuses a message without a position id or JSON data', () => {
    expect(entryOf({ data })).toBeNull();
    expect(entryOf({ id: 'abc', data })).toBeNull();
    expect(entryOf({ id: '7', data: 'not json' })).toBeNull();
  });
});

describe('connectionText', () => {
  it('words every connection state', () => {
    expect(connectionText({ status: 'connecting', attempt: 0 })).toBe('Connecting…');
    expect(connectionText({ status: 'connecting', attempt: 3 })).toBe('Reconnecting (attempt 3)…');
    expect(connectionText({ status: 'live' })).toBe('Live');
    expect(connectionText({ status: 'reconnecting', attempt: 3, delayMs: 4000, reason: 'x' })).toBe(
      'Reconnecting in 4 s (attempt 3)',
    );
    expect(connectionText({ status: 'stopped', reason: 'not_found: no tenant x' })).toBe(
      'Stopped: not_found: no tenant x',
    );
  });
});
