import type { FleetBatch } from './domain/fleet';
import { markerEvent } from './domain/markers';
import { rng } from './domain/prng';
import { SendOptions, SendResult, sendBatches } from './fleet-runner';
import { FreshnessOptions, FreshnessReport, FreshnessTracker, MarkerProbe } from './freshness';

export interface FreshnessPhase {
  /** One marker every this many batches. */
  markerEvery: number;
  probe: MarkerProbe;
  tracking: FreshnessOptions;
  seed: number;
}

/**
 * Offers the fleet's batches at a fixed load, slipping a marker event into every n-th batch; each
 * marker's clock starts when its batch's 200 arrives (after the Kafka ack) and stops when the probe
 * first sees it queryable, then scored.
 */
export async function measureFreshness(
  batches: Iterable<FleetBatch>,
  send: Omit<SendOptions, 'onAccepted'>,
  phase: FreshnessPhase,
): Promise<{ sent: SendResult; freshness: FreshnessReport }> {
  const random = rng(phase.seed);
  const markers = new Map<FleetBatch, string>();
  function* withMarkers() {
    let n = 0;
    for (const batch of batches) {
      if (n++ % phase.markerEvery === 0) {
        const session = random.uuid();
        const last = batch.items[batch.items.length - 1];
        const marked = { ...batch, items: [...batch.items, markerEvent(session, Date.parse(last.timestamp))] };
        markers.set(marked, session);
        yield marked;
      } else {
        yield batch;
      }
    }
  }
  const tracker = new FreshnessTracker(phase.probe, phase.tracking);
  tracker.start();
  const sent = await sendBatches(withMarkers(), {
    ...send,
    onAccepted: (batch, ackedAt) => {
      const session = markers.get(batch);
      if (session) tracker.add({ session, daemon: batch.daemon }, ackedAt);
    },
  });
  return { sent, freshness: await tracker.drain() };
}
