import { fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { LifecycleRecord, METADATA, mergeAll, SessionInput, SessionRow } from './session-merge';
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
      .then({ started_at: 3, last_seen_at: 30, state: 'ended', state_at: 20, record_at: 20 });
  });

  it('a session known only from events is active from its first event, with no lifecycle time', () => {
    given(event(9))
      .when(event(7))
      .then({ state: 'active', state_at: -Infinity, started_at: 7, last_seen_at: 9, record_at: null, model: null });
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
  const withoutMetadata = (row: SessionRow | null) =>
    row && Object.fromEntries(Object.entries(row).filter(([key]) => !(METADATA as readonly string[]).includes(key)));

  it('state, its time and the span of the session are the same for any permutation of the inputs', () => {
    fc.assert(
      fc.property(inAnyTwoOrders(input), ([inputs, permuted]) => {
        expect(withoutMetadata(mergeAll(permuted))).toEqual(withoutMetadata(mergeAll(inputs)));
      }),
      { seed, numRuns: runs() },
    );
  });

  it('metadata is the newest record’s for any permutation when records carry every field at distinct times', () => {
    const complete = lifecycle.map((r) => ({
      ...r,
      ...Object.fromEntries(METADATA.map((field) => [field, `${field}@${r.at}`])),
    }));
    const distinct = inAnyTwoOrders(complete).filter(([list]) => new Set(list.map((r) => r.at)).size === list.length);
    fc.assert(
      fc.property(distinct, ([inputs, permuted]) => {
        const newest = Math.max(...inputs.map((r) => r.at));
        expect(mergeAll(permuted)).toEqual(mergeAll(inputs));
        expect(mergeAll(permuted)).toMatchObject({ model: `model@${newest}`, parent_id: `parent_id@${newest}` });
      }),
      { seed, numRuns: runs() },
    );
  });
});
