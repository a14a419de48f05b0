import { eventIdFor } from './event-ids';
import { canonicalTime, eventKey, recordEvents } from './record-events';

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

  it('derives the id from the client event_id and the instant, per organization, so retries collapse', () => {
    const item = { event_id: 'e-1', action_type: 'FILE_READ' as const, timestamp: '2026-12-01T13:00:00+01:00' };
    const [first] = recordEvents([item], context);
    const [retry] = recordEvents([item], { ...context, newId: () => 'another' });
    const [otherOrg] = recordEvents([item], { ...context, orgId: '22222222-2222-4222-8222-222222222222' });
    expect(first.id).toBe(retry.id);
    expect(first.id).toBe(eventIdFor(orgId, 'e-1', '2026-12-01T12:00:00.000Z'));
    expect(otherOrg.id).not.toBe(first.id);
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

  it('keeps the first of the items that repeat an event_id at one instant, and every item without one', () => {
    let n = 0;
    const ids = { ...context, newId: () => `server-${++n}` };
    const at = '2026-12-01T12:00:00Z';
    const events = recordEvents(
      [
        { event_id: 'e-1', action_type: 'FILE_READ', timestamp: at, tool_name: 'first' },
        { action_type: 'FILE_READ', timestamp: at },
        { event_id: 'e-1', action_type: 'FILE_WRITE', timestamp: '2026-12-01T13:00:00+01:00', tool_name: 'second' },
        { action_type: 'FILE_READ', timestamp: at },
        { event_id: 'e-1', action_type: 'FILE_WRITE', timestamp: '2026-12-01T12:00:00.001Z', tool_name: 'later' },
      ],
      ids,
    );
    expect(events.map((e) => [e.client_event_id, e.tool_name, e.timestamp])).toEqual([
      ['e-1', 'first', '2026-12-01T12:00:00.000Z'],
      [null, null, '2026-12-01T12:00:00.000Z'],
      [null, null, '2026-12-01T12:00:00.000Z'],
      ['e-1', 'later', '2026-12-01T12:00:00.001Z'],
    ]);
  });
});
