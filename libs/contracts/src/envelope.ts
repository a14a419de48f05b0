// CloudEvents Kafka protocol binding, binary mode: the payload is the Kafka value and the event
// attributes travel as `ce_*` headers, so `kcat -f '%h %k %s'` shows a person everything.

export interface Envelope<T> {
  /** CloudEvents `id`: unique per event, stable across producer retries. */
  id: string;
  /** CloudEvents `type`, e.g. `agentwatch.ingest.event.v1`. */
  type: string;
  orgId: string;
  time: string;
  key: string;
  payload: T;
}

export interface WireMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

export const CE_SPEC_VERSION = '1.0';

export function toWire<T>(envelope: Envelope<T>): WireMessage {
  return {
    key: envelope.key,
    value: JSON.stringify(envelope.payload),
    headers: {
      ce_specversion: CE_SPEC_VERSION,
      ce_id: envelope.id,
      ce_type: envelope.type,
      ce_source: `/orgs/${envelope.orgId}`,
      ce_time: envelope.time,
      'content-type': 'application/json',
      org_id: envelope.orgId,
    },
  };
}

export class MalformedEnvelopeError extends Error {}

/** Reads the attributes back; throws MalformedEnvelopeError on anything a producer of ours would not write. */
export function fromWire(key: string | null, value: string | null, headers: Record<string, string | undefined>) {
  const type = headers.ce_type;
  const id = headers.ce_id;
  const orgId = headers.org_id;
  if (headers.ce_specversion !== CE_SPEC_VERSION || !type || !id || !orgId) {
    throw new MalformedEnvelopeError('missing or unsupported CloudEvents headers');
  }
  if (value === null) throw new MalformedEnvelopeError('empty value');
  let payload: unknown;
  try {
    payload = JSON.parse(value);
  } catch {
    throw new MalformedEnvelopeError('value is not JSON');
  }
  return { id, type, orgId, time: headers.ce_time ?? '', key: key ?? '', payload };
}
