import { DaemonActivity, FleetItem } from './daemon-activity';
import { childSeed, rng } from './prng';
import { ARCHES, PLATFORMS } from './vocabulary';

export interface FleetOptions {
  daemons: number;
  /** Items per request (events and lifecycle records together). */
  batch: number;
  /** Total items across the fleet. */
  events: number;
  seed: number;
  /** Daemons are spread round-robin over this many organizations. */
  organizations: number;
  /** Attach client `event_id`s (idempotent retries). */
  eventIds: boolean;
  /** Epoch ms of the first item; the clock is an input so the output is pure. */
  startMs: number;
}

export interface DaemonIdentity {
  index: number;
  organization: number;
  machine_id: string;
  hostname: string;
  os: string;
  arch: string;
  daemon_version: string;
}

export interface FleetBatch {
  daemon: number;
  items: FleetItem[];
}

export function planDaemons(options: Pick<FleetOptions, 'daemons' | 'seed' | 'organizations'>): DaemonIdentity[] {
  return Array.from({ length: options.daemons }, (_, index) => {
    const random = rng(childSeed(options.seed, index));
    return {
      index,
      organization: index % options.organizations,
      machine_id: `m-${random.uuid()}`,
      hostname: `${random.pick(['mbp', 'dev', 'ws', 'build'])}-${random.int(100, 999)}`,
      os: random.pick(PLATFORMS),
      arch: random.pick(ARCHES),
      daemon_version: `0.${random.int(8, 12)}.${random.int(0, 9)}`,
    };
  });
}

/**
 * The fleet's traffic as a lazy sequence of batches, daemons taking turns. Lazy so that 10M events
 * never sit in memory; `sessions` collects the session ids each daemon opened (for query probes).
 */
export class Fleet {
  readonly daemons: DaemonIdentity[];
  private readonly activities: DaemonActivity[];

  constructor(readonly options: FleetOptions) {
    this.daemons = planDaemons(options);
    this.activities = this.daemons.map(
      (d) =>
        new DaemonActivity(
          rng(childSeed(options.seed, d.index) ^ 0x5bd1e995),
          d.machine_id,
          options.startMs,
          options.eventIds,
        ),
    );
  }

  sessionsOf(daemon: number): readonly string[] {
    return this.activities[daemon].sessionIds;
  }

  private turn = 0;

  /** Continues where the previous call stopped, so a bench's phases are one fleet's traffic. */
  *batches(events = this.options.events, batch = this.options.batch): Generator<FleetBatch> {
    let left = events;
    while (left > 0) {
      const daemon = this.turn++ % this.daemons.length;
      const size = Math.min(batch, left);
      const activity = this.activities[daemon];
      const items = Array.from({ length: size }, () => activity.next());
      left -= size;
      yield { daemon, items };
    }
  }
}
