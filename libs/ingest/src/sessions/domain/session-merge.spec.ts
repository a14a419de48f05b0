import { fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { LifecycleRecord, METADATA, mergeAll, SessionInput, SessionRow, timeOf } from './session-merge';
import { lifecycleRecord } from './session-merge.arbitraries';

const record = (
  state: LifecycleRecord['state'],
  at: number,
  metadata: Partial<LifecycleRecord> = {},
): SessionInput => ({
  kind: 'lifecycle',
  state,
  at,
  session_name: null,
  model: null,
  signing_id: null,
  platform: null,
  parent_id: null,
  ...metadata,
});
const event = (at: number): SessionInput => ({ kind: 'event', at });

/** given(what the row has seen).when(what arrives).then(the row): what arrives is applied after what was seen. */
const given = (...past: SessionInput[]) => ({
  when: (...arriving: SessionInput[]) => ({
    // biome-ignore lint/suspicious/noThenProperty: given/when/then reads like the spec table (STYLE.md item 2); never awaited
    then: (expected: Partial<SessionRow>) => {
      expect(mergeAll([...past, ...arriving])).toMatchObject(expected);
    },
  }),
});

describe('session merge rules', () => {
  it('ended is final: a later record of another state does not reopen the session', () => {
    given(record('ended', 5)).when(record('active', 20)).then({ state: 'ended', state_at: 5, ended_at: 5 });
    given(record('active', 20)).when(record('ended', 5)).then({ state: 'ended', state_at: 5, ended_at: 5 });
  });

  it('ended is dated by the earliest ended record', () => {
    given(record('ended', 20)).when(record('ended', 5)).then({ state: 'ended', state_at: 5, ended_at: 5 });
    given(record('ended', 5)).when(record('ended', 20)).then({ state: 'ended', state_at: 5, ended_at: 5 });
  });

  it('the latest record sets the state; a late, older record does not regress it', () => {
    given(record('idle', 20)).when(record('active', 10)).then({ state: 'idle', state_at: 20, ended_at: null });
    given(record('active', 10)).when(record('idle', 20)).then({ state: 'idle', state_at: 20 });
  });

  it('records of the same time tie-break on the state name, as the row comparison in SQL does', () => {
    given(record('active', 10)).when(record('idle', 10)).then({ state: 'idle', state_at: 10 });
    given(record('idle', 10)).when(record('active', 10)).then({ state: 'idle', state_at: 10 });
  });

  it('metadata of the newest lifecycle record wins', () => {
    given(record('active', 10, { model: 'new' }))
      .when(record('idle', 5, { model: 'old' }))
      .then({ model: 'new' });
    given(record('active', 5, { model: 'old' }))
      .when(record('idle', 10, { model: 'new' }))
      .then({ model: 'new' });
  });

  it('each column keeps the newest record that reported it, with that record’s time', () => {
    given(record('active', 5, { model: 'm5', platform: 'linux' }))
      .when(record('idle', 10, { model: 'm10' }))
      .then({ model: 'm10', model_at: 10, platform: 'linux', platform_at: 5 });
    given(record('idle', 10, { model: 'm10' }))
      .when(record('active', 5, { model: 'm5', platform: 'linux' }))
      .then({ model: 'm10', model_at: 10, platform: 'linux', platform_at: 5 });
  });

  it('records of the same time tie-break on the greater value, in code point order', () => {
    given(record('active', 10, { model: 'a' }))
      .when(record('idle', 10, { model: 'b' }))
      .then({ model: 'b' });
    given(record('active', 10, { model: 'b' }))
      .when(record('idle', 10, { model: 'a' }))
      .then({ model: 'b' });
    // UTF-16 puts U+1F600 (a surrogate pair) below U+FF5E; code points, like UTF-8 bytes, above it.
    given(record('active', 10, { model: '😀' }))
      .when(record('idle', 10, { model: '～' }))
      .then({ model: '😀' });
  });

  it('a missing field never erases a known one, whichever record is newer', () => {
    given(record('active', 5, { platform: 'linux' }))
      .when(record('idle', 10))
      .then({ platform: 'linux' });
    given(record('active', 10))
      .when(record('idle', 5, { platform: 'linux' }))
      .then({ platform: 'linux' });
  });

  it('started_at / last_seen_at are the earliest / latest time seen, events included', () => {
    given(record('active', 10), record('ended', 20))
      .when(event(3), event(30))
      .then({ started_at: 3, last_seen_at: 30, state: 'ended', state_at: 20 });
  });

  it('a session known only from events is active from its first event, with no lifecycle time', () => {
    given(event(9))
      .when(event(7))
      .then({ state: 'active', state_at: -Infinity, started_at: 7, last_seen_at: 9, model: null, model_at: null });
  });

  it('any lifecycle record overrides the state that events gave, however old it is', () => {
    given(event(50)).when(record('idle', 1)).then({ state: 'idle', state_at: 1, started_at: 1, last_seen_at: 50 });
  });
});

describe('session merge is independent of arrival order', () => {
  const { seed, runs } = fuzzBudget();
  // A few distinct times, so that ties between records are common.
  const at = fc.integer({ min: 0, max: 6 }).map((n) => n * 1000);
  const lifecycle = lifecycleRecord(at, ['a', 'b']);
  const input = fc.oneof(lifecycle, fc.record({ kind: fc.constant('event' as const), at }));
  const inAnyTwoOrders = <T>(items: fc.Arbitrary<T>) =>
    fc
      .array(items, { minLength: 1, maxLength: 8 })
      .chain((list) => fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })));

  it('gives the same row for any permutation of the inputs', () => {
    fc.assert(
      fc.property(inAnyTwoOrders(input), ([inputs, permuted]) => {
        expect(mergeAll(permuted)).toEqual(mergeAll(inputs));
      }),
      { seed, numRuns: runs() },
    );
  });

  it('each metadata column holds the value of the newest record reporting one, the greater on a tie', () => {
    fc.assert(
      fc.property(fc.array(lifecycle, { minLength: 1, maxLength: 8 }), (records) => {
        const row = mergeAll(records)!;
        for (const field of METADATA) {
          const reported = records.filter((r) => r[field] !== null);
          const newestAt = Math.max(...reported.map((r) => r.at));
          const candidates = reported.filter((r) => r.at === newestAt).map((r) => r[field]!);
          const newest = reported.length ? candidates.reduce((a, b) => (greaterInCodePoints(b, a) ? b : a)) : null;
          expect(row[field]).toBe(newest);
          expect(row[timeOf(field)]).toBe(reported.length ? newestAt : null);
        }
      }),
      { seed, numRuns: runs() },
    );
  });
});

/** An oracle independent of the model's comparison: code points compared one by one. */
function greaterInCodePoints(a: string, b: string): boolean {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  const i = x.findIndex((point, k) => point !== y[k]);
  return i === -1 ? false : y[i] === undefined || x[i] > y[i];
}
