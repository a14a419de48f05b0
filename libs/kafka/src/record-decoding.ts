import { fromWire, MalformedEnvelopeError } from '@agentwatch/contracts';
import { KafkaMessage } from 'kafkajs';
import { z } from 'zod';
import { DeadLetter, REDRIVE_PROJECTION_HEADER } from './dead-letters';
import { ProjectedRecord } from './projection-types';
import { PayloadOpener, SEALED_HEADER } from './sealing';

function headerText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const first: unknown = Array.isArray(value) ? value[0] : value;
  // The patched kafkajs hands a value that is all ASCII over as a string, any other as a Buffer: read
  // by its own toString (String() of a Buffer looks the conversion up first, twice the cost).
  return Buffer.isBuffer(first) ? first.toString() : String(first);
}

/** Only the headers the envelope is read from: decoding every header of every record costs. */
const envelopeHeaders = ({ headers = {} }: KafkaMessage) => ({
  ce_specversion: headerText(headers.ce_specversion),
  ce_id: headerText(headers.ce_id),
  ce_type: headerText(headers.ce_type),
  ce_time: headerText(headers.ce_time),
  org_id: headerText(headers.org_id),
  redrive_projection: headerText(headers[REDRIVE_PROJECTION_HEADER]),
});

// The one header an opener reads: every header of every sealed record as text was 1.4 % of the
// scoring worker's CPU profile.
const sealingHeader = ({ headers = {} }: KafkaMessage): Record<string, string | undefined> => ({
  [SEALED_HEADER]: headerText(headers[SEALED_HEADER]),
});

export interface DecodedBatch<T> {
  records: ProjectedRecord<T>[];
  /** Records whose envelope or payload failed its schema: not sent yet (the caller decides up to where). */
  dead: DeadLetter[];
  /** Sealed records whose key is gone: erased, never applied. */
  erased: number;
}

export interface DecodeOptions<T> {
  topic: string;
  partition: number;
  schema: z.ZodType<T>;
  /** The consumer's name, what a decode dead letter is filed under. */
  consumer: string;
  /** Opens sealed values; without one every value is read as it is. */
  opener?: PayloadOpener;
}

/**
 * Decodes a batch's records once for every member: sealed values are opened first (only those marked
 * sealed: the others cost no call), then the envelope and the payload are checked.
 */
export async function decodeBatch<T>(messages: KafkaMessage[], o: DecodeOptions<T>): Promise<DecodedBatch<T>> {
  const decoded: DecodedBatch<T> = { records: [], dead: [], erased: 0 };
  for (const message of messages) {
    try {
      const headers = envelopeHeaders(message);
      let value: string | null;
      if (o.opener && message.value && message.headers?.[SEALED_HEADER] !== undefined) {
        value = await o.opener.open(headers.org_id ?? '', message.value, sealingHeader(message));
        if (value === null) {
          decoded.erased += 1;
          continue;
        }
      } else {
        value = message.value?.toString() ?? null;
      }
      const wire = fromWire(message.key?.toString() ?? null, value, headers);
      const payload = o.schema.safeParse(wire.payload);
      if (!payload.success) throw new MalformedEnvelopeError(`payload: ${payload.error.message}`);
      decoded.records.push({
        id: wire.id,
        type: wire.type,
        time: wire.time,
        orgId: wire.orgId,
        payload: payload.data,
        partition: o.partition,
        offset: message.offset,
        ...(headers.redrive_projection ? { onlyFor: headers.redrive_projection } : {}),
      });
    } catch (error) {
      if (!(error instanceof MalformedEnvelopeError)) throw error;
      decoded.dead.push({
        topic: o.topic,
        partition: o.partition,
        message,
        reason: 'decode',
        projection: o.consumer,
        error: error.message,
      });
    }
  }
  return decoded;
}
