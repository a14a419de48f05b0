import { EARLIEST_INSTANT, LATEST_INSTANT, TEXT_LIMITS } from './common';
import { eventIngestBody, eventRecordedV1 } from './events';
import { sessionIngestRecord, sessionLifecycleItem } from './sessions';
import { validateBody } from './validation';

const item = { action_type: 'FILE_READ', timestamp: '2026-11-01T12:00:00Z' };
const refusal = (extra: Record<string, unknown>) =>
  validateBody(eventIngestBody, { events: [{ ...item, ...extra }] }, 'events');

describe('the storable domain of ingest fields', () => {
  it('canonicalizes UUIDs to lower case, so one session has one Kafka key', () => {
    const result = validateBody(
      eventIngestBody,
      { events: [{ ...item, session_id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' }] },
      'events',
    );
    expect(result).toMatchObject({
      ok: true,
      value: { events: [{ session_id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }] },
    });
  });

  it.each([
    ['a NUL character', { tool_name: 'bash\u0000' }, 'tool_name', /NUL/],
    ['a lone high surrogate', { agent_id: 'agent-\ud800' }, 'agent_id', /lone surrogate/],
    ['a lone low surrogate in an argument', { arguments: ['ok', '\udc00x'] }, 'arguments.1', /lone surrogate/],
    [
      'a tool name over its byte budget in 4-byte characters',
      { tool_name: '🙂'.repeat(257) },
      'tool_name',
      /1024 bytes/,
    ],
    ['the year 0', { timestamp: '0000-01-01T00:00:00Z' }, 'timestamp', /must lie between/],
    [
      'an offset that pushes the instant past 9999',
      { timestamp: '9999-12-31T23:59:59-01:00' },
      'timestamp',
      /must lie between/,
    ],
    ['an instant before 1970', { timestamp: '1969-12-31T23:59:59Z' }, 'timestamp', /must lie between/],
    ['a UUID in braces', { session_id: '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' }, 'session_id', /UUID/i],
  ])('refuses %s with the path at fault', (_, extra, path, message) => {
    const result = refusal(extra);
    expect(result).toMatchObject({ ok: false, issues: [{ index: 0, path }] });
    if (!result.ok) expect(result.issues[0].message).toMatch(message);
  });

  it('accepts the edges of the domain', () => {
    const edges = {
      timestamp: LATEST_INSTANT,
      tool_name: '🙂'.repeat(TEXT_LIMITS.toolName / 4),
      arguments: ['\t\u0001\u007f', '\ud83d\ude42', 'e\u0301', '\u202eevil'],
    };
    expect(refusal(edges).ok).toBe(true);
    expect(refusal({ timestamp: EARLIEST_INSTANT }).ok).toBe(true);
  });

  it('refuses a session that is its own parent, in either spelling of its id', () => {
    const id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    const record = { session_id: id, state: 'active', timestamp: '2026-11-01T12:00:00Z', parent_id: id.toUpperCase() };
    expect(validateBody(sessionIngestRecord, record)).toMatchObject({ ok: false, issues: [{ path: 'parent_id' }] });
    const wrapper = { event_type: 'session_start', session_id: id, started_at: '2026-11-01T12:00:00Z', parent_id: id };
    expect(sessionLifecycleItem.safeParse(wrapper).success).toBe(false);
  });

  it('reads records from the topic by their shape only: the edge has checked their content', () => {
    const record = {
      id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      org_id: '11111111-1111-4111-8111-111111111111',
      client_event_id: null,
      session_id: null,
      agent_id: null,
      machine_id: null,
      action_type: 'FILE_READ',
      tool_name: 'x',
      arguments: [],
      decision: 'allow',
      timestamp: '2026-11-01T12:00:00.000Z',
      received_at: '2026-11-01T12:00:00.000Z',
    };
    expect(eventRecordedV1.parse(record)).toEqual(record);
    // Content an older edge let through reaches the database, which refuses it; the runner isolates it.
    expect(eventRecordedV1.safeParse({ ...record, tool_name: 'a\u0000b' }).success).toBe(true);
    expect(eventRecordedV1.safeParse({ ...record, timestamp: '2026-11-01T12:00:00' }).success).toBe(false);
  });
});
