import type { FleetBatch } from './domain/fleet';
import { markerEvent } from './domain/markers';
import { rng } from './domain/prng';
import { PreparedBatch, prepareBatches, SendOptions, SendResult, sendBatches } from './fleet-runner';
import { FreshnessOptions, FreshnessReport, FreshnessTracker, MarkerProbe } from './freshness';

export interface MarkedBatches {
  batches: PreparedBatch[];
  /** The marker session each marked batch carries. */
  markers: Map<PreparedBatch, string>;
}

export interface MarkerPlacement {
  /** One marker every this many batches. */
  markerEvery: number;
  seed: number;
  /** Stop once the batches hold this many items (markers included); unset: the whole iterable. */
  items?: number;
}

/**
 * The phase's batches with a marker event slipped into every n-th one, their bodies built up front:
 * generating and serializing the fleet's items while the load is offered took about half of the
 * load generator's CPU, on the cores the system under test needs.
 */
export function prepareFreshness(batches: Iterable<FleetBatch>, placement: MarkerPlacement): MarkedBatches {
  const random = rng(placement.seed);
  const limit = placement.items ?? Number.POSITIVE_INFINITY;
  const marked: FleetBatch[] = [];
  const sessions: (string | undefined)[] = [];
  let items = 0;
  // Checked after a batch, never before pulling the next one: a batch pulled from the fleet and left
  // out would still count among its daemon's sessions, which the query phase asks for.
  for (const batch of limit > 0 ? batches : []) {
    if (marked.length % placement.markerEvery === 0) {
      const session = random.uuid();
      const last = batch.items[batch.items.length - 1];
      marked.push({ ...batch, items: [...batch.items, markerEvent(session, Date.parse(last.timestamp))] });
      sessions.push(session);
    } else {
      marked.push(batch);
      sessions.push(undefined);
    }
    items += marked[marked.length - 1].items.length;
    if (items >= limit) break;
  }
  const prepared = prepareBatches(marked);
  const markers = new Map<PreparedBatch, string>();
  prepared.forEach((batch, i) => {
    const session = sessions[i];
    if (session) markers.set(batch, session);
  });
  return { batches: prepared, markers };
}

export interface FreshnessProbing {
  probe: MarkerProbe;
  tracking: FreshnessOptions;
}

/**
 * Offers the prepared batches at a fixed load; each marker's clock starts when its batch's 200
 * arrives (after the Kafka ack) and stops when the probe first sees it queryable, then scored.
 * `unsent`: the batches the phase did not reach, for the caller to send after it (their sessions
 * are the fleet's, which later phases query).
 */
export async function measureFreshness(
  { batches, markers }: MarkedBatches,
  send: Omit<SendOptions<PreparedBatch>, 'onAccepted'>,
  probing: FreshnessProbing,
): Promise<{ sent: SendResult; freshness: FreshnessReport; unsent: PreparedBatch[] }> {
  const tracker = new FreshnessTracker(probing.probe, probing.tracking);
  tracker.start();
  let taken = 0;
  function* inOrder() {
    while (taken < batches.length) yield batches[taken++];
  }
  const sent = await sendBatches(inOrder(), {
    ...send,
    onAccepted: (batch, ackedAt) => {
      const session = markers.get(batch);
      if (session) tracker.add({ session, daemon: batch.daemon }, ackedAt);
    },
  });
  return { sent, freshness: await tracker.drain(), unsent: batches.slice(taken) };
}
