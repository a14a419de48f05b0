import { toWire } from '@agentwatch/contracts';
import { IHeaders, KafkaMessage } from 'kafkajs';
import { z } from 'zod';
import { REDRIVE_PROJECTION_HEADER } from './dead-letters';
import { decodeBatch } from './record-decoding';

const schema = z.object({ n: z.number() });
const wire = toWire({
  id: '0193a0a0-0000-7000-8000-000000000001',
  type: 'agentwatch.test.v1',
  orgId: '11111111-1111-4111-8111-111111111111',
  time: '2026-11-01T12:00:00.000Z',
  key: 'session-1',
  payload: { n: 1 },
});

/** A record as kafkajs hands it over: header values as bytes, a repeated header as a list of them. */
function message(offset: string, headers: IHeaders, value = wire.value): KafkaMessage {
  return {
    key: Buffer.from(wire.key),
    value: Buffer.from(value),
    headers,
    offset,
    timestamp: '1700000000000',
    attributes: 0,
  };
}
const asBytes = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, text]) => [name, Buffer.from(text)]));
const options = { topic: 't', partition: 3, schema, consumer: 'test' };

describe('decodeBatch', () => {
  it('reads the envelope from header bytes, text, or the first of a repeated header', async () => {
    const headers = asBytes(wire.headers);
    const { records, dead } = await decodeBatch(
      [
        message('7', headers),
        message('8', { ...wire.headers }),
        message('9', { ...headers, ce_type: [Buffer.from('agentwatch.test.v1'), Buffer.from('other')] }),
        message('10', { ...headers, [REDRIVE_PROJECTION_HEADER]: Buffer.from('events') }),
      ],
      options,
    );
    expect(dead).toEqual([]);
    expect(records).toEqual(
      ['7', '8', '9', '10'].map((offset) => ({
        id: '0193a0a0-0000-7000-8000-000000000001',
        type: 'agentwatch.test.v1',
        time: '2026-11-01T12:00:00.000Z',
        orgId: '11111111-1111-4111-8111-111111111111',
        payload: { n: 1 },
        partition: 3,
        offset,
        ...(offset === '10' ? { onlyFor: 'events' } : {}),
      })),
    );
  });

  it('keeps header text that is not ASCII as written', async () => {
    const { records } = await decodeBatch([message('1', asBytes({ ...wire.headers, ce_id: 'événement-1' }))], options);
    expect(records.map((r) => r.id)).toEqual(['événement-1']);
  });

  it('files what fails its envelope or its payload schema as dead letters, and goes on', async () => {
    const headers = asBytes(wire.headers);
    const { records, dead } = await decodeBatch(
      [
        message('1', { ...headers, ce_specversion: Buffer.from('0.3') }),
        message('2', headers, '{"n":"one"}'),
        message('3', headers),
      ],
      options,
    );
    expect(records.map((r) => r.offset)).toEqual(['3']);
    expect(dead.map((d) => [d.message.offset, d.reason, d.projection])).toEqual([
      ['1', 'decode', 'test'],
      ['2', 'decode', 'test'],
    ]);
  });
});
