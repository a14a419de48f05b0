import { hash } from 'node:crypto';
import { parse as parseUuid } from 'uuid';

/** Namespace of the name hash behind every id derived from a daemon's own event_id. */
export const CLIENT_EVENT_NAMESPACE = '6f1f4c36-8f51-5b7e-9a55-6a2b1c1d0e01';

/**
 * Events timed from this instant on get ids that begin with their own time; events timed before it
 * keep the UUIDv5 of earlier releases, so one of them retried now is still found under the id it
 * was stored with. No deployment of an earlier release stored events timed after it
 * (docs/adr/0017-event-ids-ordered-by-time.md).
 */
export const TIME_ORDERED_IDS_FROM = '2026-11-28T00:00:00.000Z';

const orderedFromMs = Date.parse(TIME_ORDERED_IDS_FROM);
const NAMESPACE_BYTES = Buffer.from(parseUuid(CLIENT_EVENT_NAMESPACE));
const VARIANT_DIGITS = '89ab';

/**
 * SHA-1 of the namespace and `<org>/<event_id>`, as hex: the hash of uuid's `v5(name, namespace)`.
 * uuid makes a Hash object and a byte array per call, 8 % of the API's CPU at batch 500; a one-shot
 * hash to hex costs about half of that.
 */
function nameHash(orgId: string, clientEventId: string): string {
  const name = `${orgId}/${clientEventId}`;
  const input = Buffer.allocUnsafe(16 + Buffer.byteLength(name));
  NAMESPACE_BYTES.copy(input, 0);
  input.write(name, 16, 'utf8');
  return hash('sha1', input, 'hex');
}

/**
 * The id of an event a daemon named with its own `event_id`: a retried item (same event_id, same
 * timestamp) gets the same id, so it is stored once.
 *
 * From {@link TIME_ORDERED_IDS_FROM} on it is an RFC 9562 UUIDv8 whose first 48 bits are the event's
 * Unix milliseconds and whose last 74 are those of the UUIDv5: an organization's new events then land
 * on the last pages of the `events` and `event_scores` primary keys instead of on random ones, so
 * Postgres no longer reads and writes out an index page per event at 10M rows (docs/performance.md).
 * Before it, the UUIDv5 itself.
 *
 * `timestamp` is the event's instant as recorded (any ISO 8601 form `Date.parse` reads).
 */
export function eventIdFor(orgId: string, clientEventId: string, timestamp: string): string {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) throw new RangeError(`not an instant: ${timestamp}`);
  const h = nameHash(orgId, clientEventId);
  // Digit 12 is the version; digit 16's top two bits are the variant (10).
  const variant = VARIANT_DIGITS[Number.parseInt(h[16], 16) & 3];
  const tail = `${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  if (ms < orderedFromMs) return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${tail}`;
  // 12 hex digits hold every storable instant (9999-12-31 is 0xe677d21fdbff).
  const time = ms.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-8${tail}`;
}
