import fc from 'fast-check';
import { parse as uuidParse, v5 as uuidv5 } from 'uuid';
import { CLIENT_EVENT_NAMESPACE, eventIdFor, TIME_ORDERED_IDS_FROM } from './event-ids';

describe('the id of an event named by its daemon', () => {
  const orgId = '11111111-1111-4111-8111-111111111111';
  const orderedFrom = Date.parse(TIME_ORDERED_IDS_FROM);
  const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

  /** uuid's v5 of the UTF-8 bytes of `<org>/<event_id>`: the ids of earlier releases. */
  const v5Of = (org: string, clientEventId: string) =>
    uuidv5(Buffer.from(`${org}/${clientEventId}`, 'utf8'), uuidParse(CLIENT_EVENT_NAMESPACE));
  const iso = (ms: number) => new Date(ms).toISOString();

  // Any text, lone surrogates included (JSON can carry them): they are UTF-8 encoded as U+FFFD.
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 50 }),
  );
  const before = fc.integer({ min: 0, max: orderedFrom - 1 });
  const fromCutOver = fc.integer({ min: orderedFrom, max: LATEST });

  // Stored ids must never change: these pin both forms.
  it('keeps the ids of earlier releases for events timed before the cut-over, for non-ASCII event ids too', () => {
    expect(eventIdFor(orgId, 'e-1', '2026-11-01T12:00:00.000Z')).toBe('fe6ca5ab-b517-5806-aaca-1236b24b9348');
    expect(eventIdFor(orgId, 'é-ü-🙂', '2026-11-27T23:59:59.999Z')).toBe('107f5c8b-e410-576d-849a-1a4bcbd4ed45');
  });

  it('begins with the instant from the cut-over on, and ends as the UUIDv5 does', () => {
    expect(eventIdFor(orgId, 'e-1', TIME_ORDERED_IDS_FROM)).toBe('01a21f73-9c00-8806-aaca-1236b24b9348');
    expect(eventIdFor(orgId, 'é-ü-🙂', '9999-12-31T23:59:59.999Z')).toBe('e677d21f-dbff-876d-849a-1a4bcbd4ed45');
  });

  it("is uuid's v5 of `<org>/<event_id>` for any event timed before the cut-over", () => {
    fc.assert(
      fc.property(fc.uuid(), anyText, before, (org, clientEventId, ms) => {
        expect(eventIdFor(org, clientEventId, iso(ms))).toBe(v5Of(org, clientEventId));
      }),
      { numRuns: 2000 },
    );
  });

  it('is a UUIDv8 of the Unix milliseconds and the last 74 bits of that v5 from the cut-over on', () => {
    fc.assert(
      fc.property(fc.uuid(), anyText, fromCutOver, (org, clientEventId, ms) => {
        const id = eventIdFor(org, clientEventId, iso(ms));
        const v5 = v5Of(org, clientEventId);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
        expect(id.slice(15)).toBe(v5.slice(15));
      }),
      { numRuns: 2000 },
    );
  });

  it('orders the ids of one organization as their instants, whatever the event ids', () => {
    fc.assert(
      fc.property(fc.uuid(), anyText, anyText, fromCutOver, fromCutOver, (org, a, b, msA, msB) => {
        fc.pre(msA < msB);
        expect(eventIdFor(org, a, iso(msA)) < eventIdFor(org, b, iso(msB))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the instant in any offset, so one event sent in two spellings has one id', () => {
    expect(eventIdFor(orgId, 'e-1', '2026-12-01T13:00:00+01:00')).toBe(
      eventIdFor(orgId, 'e-1', '2026-12-01T12:00:00Z'),
    );
    expect(eventIdFor(orgId, 'e-1', '2026-11-28T01:00:00+02:00')).toBe(
      eventIdFor(orgId, 'e-1', '2026-11-01T00:00:00Z'),
    );
  });

  it('is a different event at a different instant', () => {
    expect(eventIdFor(orgId, 'e-1', '2026-12-01T12:00:00.001Z')).not.toBe(
      eventIdFor(orgId, 'e-1', '2026-12-01T12:00:00Z'),
    );
  });

  it('refuses what is not an instant', () => {
    expect(() => eventIdFor(orgId, 'e-1', 'yesterday')).toThrow(RangeError);
  });
});
