import fc from 'fast-check';
import { parse as uuidParse, v5 as uuidv5 } from 'uuid';
import { CLIENT_EVENT_NAMESPACE, canonicalTime, eventIdFor, eventKey, recordEvents } from './record-events';

describe('recording an ingest batch', () => {
  const orgId = '11111111-1111-4111-8111-111111111111';
  const context = { orgId, machineId: 'm-1', receivedAt: new Date('2026-11-01T12:00:05Z'), newId: () => 'server-id' };

  it('fills the canonical record with defaults and the time it was received', () => {
    const [event] = recordEvents([{ action_type: 'PROCESS_EXEC', timestamp: '2026-11-01T13:00:00+01:00' }], context);
    expect(event).toEqual({
      id: 'server-id',
      org_id: orgId,
      client_event_id: null,
      session_id: null,
      agent_id: null,
      machine_id: 'm-1',
      action_type: 'PROCESS_EXEC',
      tool_name: null,
      arguments: [],
      decision: 'allow',
      timestamp: '2026-11-01T12:00:00.000Z',
      received_at: '2026-11-01T12:00:05.000Z',
    });
  });

  it('derives the id from the client event_id, per organization, so retries collapse', () => {
    const item = { event_id: 'e-1', action_type: 'FILE_READ' as const, timestamp: '2026-11-01T12:00:00Z' };
    const [first] = recordEvents([item], context);
    const [retry] = recordEvents([item], { ...context, newId: () => 'another' });
    const [otherOrg] = recordEvents([item], { ...context, orgId: '22222222-2222-4222-8222-222222222222' });
    expect(first.id).toBe(retry.id);
    expect(first.id).toBe(eventIdFor(orgId, 'e-1'));
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(otherOrg.id).not.toBe(first.id);
  });

  // Stored ids must never change: these are uuid's v5 of the string `<org>/<event_id>`.
  it('keeps the ids of earlier releases, for non-ASCII event ids too', () => {
    expect(eventIdFor(orgId, 'e-1')).toBe('fe6ca5ab-b517-5806-aaca-1236b24b9348');
    expect(eventIdFor(orgId, 'é-ü-🙂')).toBe('107f5c8b-e410-576d-849a-1a4bcbd4ed45');
  });

  // Any text, lone surrogates included (JSON can carry them): they are UTF-8 encoded as U+FFFD.
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 50 }),
  );

  it("is uuid's v5 of the UTF-8 bytes of `<org>/<event_id>` for any event id and organization", () => {
    fc.assert(
      fc.property(fc.uuid(), anyText, (org, clientEventId) => {
        const earlier = uuidv5(Buffer.from(`${org}/${clientEventId}`, 'utf8'), uuidParse(CLIENT_EVENT_NAMESPACE));
        expect(eventIdFor(org, clientEventId)).toBe(earlier);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes every timestamp as Date#toISOString would, without parsing those already in that form', () => {
    const inputs = [
      '2026-11-01T12:00:00.123Z',
      '2026-11-01T13:00:00.123+01:00',
      '2026-11-01T12:00:00Z',
      '2026-02-28T23:59:59.999Z',
      '2024-02-29T00:00:00.000Z',
      '2026-02-30T00:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2026-11-23T24:00:00.000Z',
    ];
    expect(inputs.map(canonicalTime)).toEqual(inputs.map((iso) => new Date(iso).toISOString()));
  });

  it('truncates timestamps to the millisecond so cursors compare exactly', () => {
    const [event] = recordEvents([{ action_type: 'FILE_READ', timestamp: '2026-11-01T12:00:00.123456Z' }], context);
    expect(event.timestamp).toBe('2026-11-01T12:00:00.123Z');
  });

  it('keys by session, then agent, then event id', () => {
    const [withSession, withAgent, bare] = recordEvents(
      [
        {
          action_type: 'FILE_READ',
          timestamp: '2026-11-01T12:00:00Z',
          session_id: '8b7e1c2a-3f4d-5a6b-8c9d-0e1f2a3b4c5d',
          agent_id: 'a',
        },
        { action_type: 'FILE_READ', timestamp: '2026-11-01T12:00:00Z', agent_id: 'a' },
        { action_type: 'FILE_READ', timestamp: '2026-11-01T12:00:00Z' },
      ],
      context,
    );
    expect([eventKey(withSession), eventKey(withAgent), eventKey(bare)]).toEqual([
      '8b7e1c2a-3f4d-5a6b-8c9d-0e1f2a3b4c5d',
      'a',
      'server-id',
    ]);
  });

  it('keeps the first of the items that repeat an event_id, and every item without one', () => {
    let n = 0;
    const ids = { ...context, newId: () => `server-${++n}` };
    const at = '2026-11-01T12:00:00Z';
    const events = recordEvents(
      [
        { event_id: 'e-1', action_type: 'FILE_READ', timestamp: at, tool_name: 'first' },
        { action_type: 'FILE_READ', timestamp: at },
        { event_id: 'e-1', action_type: 'FILE_WRITE', timestamp: at, tool_name: 'second' },
        { action_type: 'FILE_READ', timestamp: at },
      ],
      ids,
    );
    expect(events.map((e) => [e.client_event_id, e.tool_name])).toEqual([
      ['e-1', 'first'],
      [null, null],
      [null, null],
    ]);
  });
});
