import { eventIngestBody } from './events';
import { sessionIngestRecord } from './sessions';
import { validateBody } from './validation';

describe('batch validation', () => {
  const valid = { action_type: 'FILE_READ', timestamp: '2026-11-01T12:00:00Z' };

  it('accepts a batch of valid items and drops unknown keys', () => {
    const result = validateBody(eventIngestBody, { events: [{ ...valid, extra: 1 }] }, 'events');
    expect(result).toEqual({ ok: true, value: { events: [valid] } });
  });

  it('reports the item index and the path inside the item', () => {
    const result = validateBody(eventIngestBody, { events: [valid, { ...valid, arguments: ['ok', 3] }] }, 'events');
    expect(result).toMatchObject({ ok: false, issues: [{ index: 1, path: 'arguments.1' }] });
  });

  it('reports issues outside the batch array with a null index', () => {
    expect(validateBody(eventIngestBody, { events: 'nope' }, 'events')).toMatchObject({
      ok: false,
      issues: [{ index: null, path: 'events' }],
    });
  });

  it.each([
    ['a timestamp without an offset', { ...valid, timestamp: '2026-11-01T12:00:00' }, 'timestamp'],
    ['a session_id that is not a UUID', { ...valid, session_id: 'abc' }, 'session_id'],
    ['an unknown decision', { ...valid, decision: 'maybe' }, 'decision'],
    ['an unknown action type', { ...valid, action_type: 'FILE_EXEC' }, 'action_type'],
  ])('refuses %s', (_, item, path) => {
    expect(validateBody(eventIngestBody, { events: [item] }, 'events')).toMatchObject({
      ok: false,
      issues: [{ index: 0, path }],
    });
  });

  it('validates the flat session record of the spec', () => {
    const record = {
      session_id: '8b7e1c2a-3f4d-5a6b-8c9d-0e1f2a3b4c5d',
      state: 'active',
      timestamp: '2026-11-01T12:00:00Z',
      parent_id: null,
    };
    expect(validateBody(sessionIngestRecord, record).ok).toBe(true);
    expect(validateBody(sessionIngestRecord, { ...record, state: 'paused' })).toMatchObject({
      ok: false,
      issues: [{ path: 'state' }],
    });
  });
});
