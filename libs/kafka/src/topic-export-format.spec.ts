import { EVENT_RECORDED_TYPE, toWire } from '@agentwatch/contracts';
import {
  decodePayload,
  ExportRecord,
  formatLine,
  parseTimeArg,
  planRanges,
  recordsInRange,
  selects,
  toExportLine,
} from './topic-export-format';

const ORG = '11111111-1111-4111-8111-111111111111';
const event = {
  id: '0193a0a0-0000-7000-8000-000000000001',
  org_id: ORG,
  client_event_id: null,
  session_id: '22222222-2222-4222-8222-222222222222',
  agent_id: 'claude',
  machine_id: 'laptop-1',
  action_type: 'PROCESS_EXEC',
  tool_name: 'git',
  arguments: ['status'],
  decision: 'allow',
  timestamp: '2026-01-01T00:00:00.000Z',
  received_at: '2026-01-01T00:00:01.000Z',
};
const wire = toWire({
  id: event.id,
  type: EVENT_RECORDED_TYPE,
  orgId: ORG,
  time: event.received_at,
  key: event.session_id,
  payload: event,
});
const record = (overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  partition: 3,
  offset: '42',
  key: wire.key,
  timestamp: Date.parse('2026-01-01T00:00:01.000Z'),
  headers: wire.headers,
  value: wire.value,
  ...overrides,
});

describe('selecting records', () => {
  const at = Date.parse('2026-01-01T00:00:01.000Z');

  it.each([
    ['no criteria', {}, true],
    ['its organization', { orgId: ORG }, true],
    ['another organization', { orgId: '33333333-3333-4333-8333-333333333333' }, false],
    ['its type', { ceType: EVENT_RECORDED_TYPE }, true],
    ['another type', { ceType: 'agentwatch.ingest.session.v1' }, false],
    ['a window whose bounds are its timestamp (inclusive)', { sinceMs: at, untilMs: at }, true],
    ['a window that starts after it', { sinceMs: at + 1 }, false],
    ['a window that ends before it', { untilMs: at - 1 }, false],
  ])('%s', (_, selection, expected) => {
    expect(selects(selection, record())).toBe(expected);
  });
});

describe('decoding payloads through the contracts', () => {
  it('decodes a valid event of ingest.events.v1', () => {
    expect(decodePayload('ingest.events.v1', EVENT_RECORDED_TYPE, wire.value)).toEqual({ payload: event });
  });

  it('keeps an invalid payload with the schema error, so the line still accounts for the record', () => {
    const decoded = decodePayload('ingest.events.v1', EVENT_RECORDED_TYPE, '{"not":"an event"}');
    expect(decoded.payload).toEqual({ not: 'an event' });
    expect(decoded.payload_error).toMatch(/does not match the ingest.events.v1 schema: id: /);
  });

  it('keeps a value that is not JSON as raw text', () => {
    const decoded = decodePayload('ingest.events.v1', EVENT_RECORDED_TYPE, '{"open');
    expect(decoded).toEqual({
      payload: null,
      payload_error: expect.stringMatching(/^value is not JSON/),
      value: '{"open',
    });
  });

  it('flags a record whose ce_type is not the topic type', () => {
    expect(decodePayload('ingest.events.v1', 'agentwatch.other.v1', wire.value)).toEqual({
      payload: event,
      payload_error: `ce_type agentwatch.other.v1 is not ${EVENT_RECORDED_TYPE}`,
    });
  });

  it('flags a record without a value', () => {
    expect(decodePayload('ingest.events.v1', EVENT_RECORDED_TYPE, null)).toEqual({
      payload: null,
      payload_error: 'record has no value',
    });
  });

  it('passes JSON through on a topic the contracts give no schema (a dead-letter topic)', () => {
    expect(decodePayload('ingest.events.v1.dlq', undefined, '{"a":1}')).toEqual({ payload: { a: 1 } });
  });
});

describe('NDJSON lines', () => {
  it('carry topic, partition, offset, key, ISO timestamp, headers and the decoded payload on one line', () => {
    const text = formatLine(toExportLine('ingest.events.v1', record()));
    expect(text.endsWith('\n')).toBe(true);
    expect(text.indexOf('\n')).toBe(text.length - 1);
    expect(JSON.parse(text)).toEqual({
      topic: 'ingest.events.v1',
      partition: 3,
      offset: '42',
      key: event.session_id,
      timestamp: '2026-01-01T00:00:01.000Z',
      headers: wire.headers,
      payload: event,
    });
  });
});

describe('time arguments', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it.each([
    ['2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:00:00Z')],
    ['2026-01-01T02:00:00+02:00', Date.parse('2026-01-01T00:00:00Z')],
    ['2026-01-01', Date.parse('2026-01-01T00:00:00Z')],
    ['1767225600000', 1767225600000],
    ['90m', now - 90 * 60_000],
    ['2h', now - 2 * 3_600_000],
    ['7d', now - 7 * 86_400_000],
    ['30s', now - 30_000],
  ])('reads %s', (text, expected) => {
    expect(parseTimeArg(text, now)).toBe(expected);
  });

  it('refuses a date-time without an offset, and text that is no time', () => {
    expect(() => parseTimeArg('2026-01-01T00:00:00', now)).toThrow(/no UTC offset/);
    expect(() => parseTimeArg('yesterday', now)).toThrow(/cannot read time "yesterday"/);
  });
});

describe('planning the offset ranges', () => {
  const highs = [
    { partition: 1, offset: '50' },
    { partition: 0, offset: '100' },
    { partition: 2, offset: '0' },
  ];

  it('reads from the first offset at `since` to the high watermark captured at start', () => {
    const starts = [
      { partition: 0, offset: '40' },
      { partition: 1, offset: '50' },
      { partition: 2, offset: '0' },
    ];
    const ranges = planRanges(highs, starts);
    expect(ranges).toEqual([
      { partition: 0, start: 40n, end: 100n },
      { partition: 1, start: 50n, end: 50n },
      { partition: 2, start: 0n, end: 0n },
    ]);
    expect(recordsInRange(ranges)).toBe(60);
  });

  it('ends at the first offset past `until`, never past the captured high watermark', () => {
    const starts = highs.map((h) => ({ partition: h.partition, offset: '0' }));
    // Lookups made after the capture may see records appended since: 120 > 100.
    const untilEnds = [
      { partition: 0, offset: '70' },
      { partition: 1, offset: '55' },
      { partition: 2, offset: '0' },
    ];
    expect(planRanges(highs, starts, untilEnds)).toEqual([
      { partition: 0, start: 0n, end: 70n },
      { partition: 1, start: 0n, end: 50n },
      { partition: 2, start: 0n, end: 0n },
    ]);
  });

  it('gives an empty range when `since` lies past the captured end', () => {
    const ranges = planRanges([{ partition: 0, offset: '10' }], [{ partition: 0, offset: '12' }]);
    expect(ranges).toEqual([{ partition: 0, start: 10n, end: 10n }]);
    expect(recordsInRange(ranges)).toBe(0);
  });
});
