import { fromWire, MalformedEnvelopeError, toWire } from './envelope';

describe('CloudEvents binary-mode envelope', () => {
  const envelope = {
    id: '0193a0a0-0000-7000-8000-000000000001',
    type: 'agentwatch.ingest.event.v1',
    orgId: '11111111-1111-4111-8111-111111111111',
    time: '2026-11-01T12:00:00.000Z',
    key: 'session-1',
    payload: { hello: 'world' },
  };

  it('puts the attributes in ce_* headers and the payload, as JSON, in the value', () => {
    expect(toWire(envelope)).toEqual({
      key: 'session-1',
      value: '{"hello":"world"}',
      headers: {
        ce_specversion: '1.0',
        ce_id: envelope.id,
        ce_type: envelope.type,
        ce_source: `/orgs/${envelope.orgId}`,
        ce_time: envelope.time,
        'content-type': 'application/json',
        org_id: envelope.orgId,
      },
    });
  });

  it('reads back what it wrote', () => {
    const wire = toWire(envelope);
    expect(fromWire(wire.key, wire.value, wire.headers)).toEqual(envelope);
  });

  it.each([
    ['no headers', {}, '{}'],
    ['another spec version', { ...toWire(envelope).headers, ce_specversion: '0.3' }, '{}'],
    ['no organization', { ...toWire(envelope).headers, org_id: undefined }, '{}'],
    ['a value that is not JSON', toWire(envelope).headers, '{"open'],
  ])('refuses %s', (_, headers, value) => {
    expect(() => fromWire('k', value, headers)).toThrow(MalformedEnvelopeError);
  });
});
