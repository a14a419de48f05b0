import fc from 'fast-check';

/**
 * Adversarial ingest input built from the contract's fields: every Unicode plane, control and
 * bidirectional characters, lone surrogates, combining marks, boundary lengths and instants, UUID
 * spellings, and ids drawn from small pools so that one batch repeats and nearly repeats itself.
 */

const HOSTILE = ['\u0000', '\ud800', '\udfff'];
const SPECIALS = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u0301',
  '\u202e',
  '\u200f',
  '\ufeff',
  '\uffff',
  '\u0007',
  '\u007f',
  '\n',
  '\t',
  '🙂',
  'é',
  'ß',
  '"',
  '\\',
  '%',
  "'",
];

const specialRun = fc.string({ unit: fc.constantFrom(...SPECIALS.filter((c) => !HOSTILE.includes(c))), maxLength: 8 });
const hostileRun = fc.string({ unit: fc.constantFrom(...SPECIALS), minLength: 1, maxLength: 8 });

/**
 * Text the contract accepts, as strange as it gets: every plane, control and bidirectional
 * characters, combining marks, and lengths around the byte budgets.
 */
export const edgyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 6 }), specialRun, fc.string({ maxLength: 6 }))
      .map((parts) => parts.join('')),
  },
  {
    weight: 1,
    // Around the byte budgets of the contract: 1 KiB of tool name, counted in 1- to 4-byte characters.
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '€', '🙂'), fc.constantFrom(255, 256, 341, 342, 512, 1023, 1024, 1025))
      .map(([char, count]) => char.repeat(count)),
  },
);

/** Text some of which no layer can store: NUL, lone surrogates, any code unit at all. */
export const adversarialText = fc.oneof(
  { weight: 3, arbitrary: edgyText },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 6 }), hostileRun).map((parts) => parts.join('')) },
);

const UUID_POOL = [
  '0d9a2f4e-5b6c-5d7e-8f90-a1b2c3d4e5f6',
  '6ba7b810-9dad-51d1-80b4-00c04fd430c8',
  'f47ac10b-58cc-4372-a567-0e02b2c3d479',
];

const spelled = (...forms: string[]) =>
  fc.tuple(fc.constantFrom(...UUID_POOL), fc.constantFrom(...forms)).map(([id, form]) => {
    switch (form) {
      case 'upper':
        return id.toUpperCase();
      case 'mixed':
        return id.replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c));
      case 'braces':
        return `{${id}}`;
      case 'urn':
        return `urn:uuid:${id}`;
      case 'compact':
        return id.replace(/-/g, '');
      case 'padded':
        return ` ${id}`;
      default:
        return id;
    }
  });

/** The pool's ids in the spellings the contract accepts (and folds to one), and in forms it refuses. */
const acceptedUuid = spelled('lower', 'upper', 'mixed');
const anyUuid = spelled('lower', 'upper', 'mixed', 'lower', 'braces', 'urn', 'compact', 'padded');

const OFFSETS = ['Z', '+00:00', '-00:00', '+14:00', '-12:00', '+05:30', '-23:59', '+23:59'];

const isoWithOffset = (ms: number, offset: string, fraction: string) => {
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = offset === 'Z' ? 0 : sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
  return `${local}${fraction}${offset}`;
};

const ordinaryTimestamp = fc
  .tuple(
    fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 0, 1) }),
    fc.constantFrom(...OFFSETS),
    fc.constantFrom('', '.1', '.123', '.123456', '.123456789'),
  )
  .map(([ms, offset, fraction]) => isoWithOffset(ms, offset, fraction));

/** Valid instants at the edges: the epoch, the last millisecond of 9999, a leap day at +14:00. */
const edgyTimestamp = fc.oneof(
  { weight: 4, arbitrary: ordinaryTimestamp },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1970-01-01T00:00:00Z',
      '1970-01-01T00:01:00+00:01',
      '2024-02-29T23:59:59.999+14:00',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59+01:00',
    ),
  },
);

/** Instants past every edge the stack has (year 0, year 9999 pushed over by an offset, leap seconds). */
const adversarialTimestamp = fc.oneof(
  {
    weight: 4,
    arbitrary: edgyTimestamp,
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00Z',
      '1970-01-01T00:00:00+00:01',
      '2024-02-29T23:59:59.999+14:00',
      '2023-02-29T12:00:00Z',
      '2026-11-01T23:59:60Z',
      '2026-11-01T24:00:00Z',
      '2026-11-01T12:00:00',
      '2026-11-01 12:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:59:59-01:00',
      '+275760-09-13T00:00:00Z',
    ),
  },
);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** The values one batch draws from: all accepted by the contract, or some refused. */
interface Vocabulary {
  text: fc.Arbitrary<string>;
  timestamp: fc.Arbitrary<string>;
  uuid: fc.Arbitrary<string>;
  actionType: fc.Arbitrary<string>;
  state: fc.Arbitrary<string>;
  decision: fc.Arbitrary<string>;
}

const ACTIONS = ['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'];

const edgy: Vocabulary = {
  text: edgyText,
  timestamp: edgyTimestamp,
  uuid: acceptedUuid,
  actionType: fc.constantFrom(...ACTIONS),
  state: fc.constantFrom('active', 'idle', 'ended'),
  decision: fc.constantFrom('allow', 'warn', 'block'),
};

const hostile: Vocabulary = {
  text: adversarialText,
  timestamp: adversarialTimestamp,
  uuid: anyUuid,
  actionType: fc.oneof({ weight: 9, arbitrary: edgy.actionType }, fc.constantFrom('process_exec', 'FILE_EXEC', '')),
  state: fc.oneof({ weight: 9, arbitrary: edgy.state }, fc.constant('paused')),
  decision: fc.oneof({ weight: 9, arbitrary: edgy.decision }, fc.constant('Allow')),
};

const eventItem = (v: Vocabulary) =>
  fc.record(
    {
      // A small pool, so batches repeat and nearly repeat their own ids, or text of the vocabulary.
      event_id: maybe(fc.oneof(fc.constantFrom('e-1', 'e-2', 'E-1', 'e-1 ', ''), v.text)),
      action_type: v.actionType,
      timestamp: v.timestamp,
      tool_name: maybe(fc.oneof({ weight: 4, arbitrary: v.text }, fc.constant(null))),
      arguments: maybe(fc.array(v.text, { maxLength: 4 })),
      session_id: maybe(fc.oneof({ weight: 5, arbitrary: v.uuid }, fc.constant(null))),
      agent_id: maybe(v.text),
      decision: maybe(v.decision),
    },
    { requiredKeys: ['action_type', 'timestamp'] },
  );

const sessionRecord = (v: Vocabulary) =>
  fc.record(
    {
      session_id: v.uuid,
      state: v.state,
      timestamp: v.timestamp,
      session_name: maybe(v.text),
      model: maybe(v.text),
      signing_id: maybe(v.text),
      platform: maybe(v.text),
      parent_id: maybe(fc.oneof(v.uuid, fc.constant(null))),
    },
    { requiredKeys: ['session_id', 'state', 'timestamp'] },
  );

/** The development wrapper: start and end records, often for one session and out of order. */
const lifecycleItem = (v: Vocabulary) =>
  fc.record(
    {
      event_type: fc.constantFrom('session_start', 'session_end'),
      session_id: v.uuid,
      timestamp: maybe(v.timestamp),
      started_at: maybe(v.timestamp),
      ended_at: maybe(v.timestamp),
      platform: maybe(v.text),
      parent_id: maybe(v.uuid),
      action_count: maybe(fc.oneof(fc.nat(), fc.constantFrom(-1, 1.5, 2 ** 53, 1e308))),
    },
    { requiredKeys: ['event_type', 'session_id'] },
  );

const requestOf = (v: Vocabulary) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        route: fc.constant('/v1/events/ingest'),
        body: fc.record({ events: fc.array(eventItem(v), { minLength: 1, maxLength: 6 }) }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ route: fc.constant('/v1/sessions/ingest'), body: sessionRecord(v) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        route: fc.constant('/v1/sessions/ingest'),
        body: fc.record({ events: fc.array(lifecycleItem(v), { minLength: 1, maxLength: 5 }) }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        route: fc.constant('/v1/ingest'),
        body: fc.record({ events: fc.array(fc.oneof(eventItem(v), sessionRecord(v)), { minLength: 1, maxLength: 6 }) }),
      }),
    },
  );

/** Requests drawn only from hostile values: what a misbehaving or malicious daemon sends. */
export const pathologicalRequest = requestOf(hostile);

/** One request to one of the three ingest routes: edgy but valid most of the time, hostile often. */
export const ingestRequest = fc.oneof(
  { weight: 2, arbitrary: requestOf(edgy) },
  { weight: 1, arbitrary: requestOf(hostile) },
);
export type IngestRequest = { route: string; body: unknown };
