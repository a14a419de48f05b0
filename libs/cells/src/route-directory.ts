import { RouteChangedV1, routeChangedV1, TOPICS } from '@agentwatch/contracts';
import { PRODUCT_SCHEMA_VERSION } from '@agentwatch/db';
import { TopicTail, TopicTails } from '@agentwatch/kafka';
import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Placement, placementOf } from './domain/placement';

type RouteListener = (route: RouteChangedV1) => void;

/**
 * The data plane's copy of the route directory: every route of `tenancy.routes.v1`, in memory,
 * updated as the control plane publishes (so a change reaches every replica without a lookup per
 * event). An organization without a route is confirmed as a shared-database one once: the reader
 * first reads the routes topic to its end, and since a tenant's route is published before any of its
 * credentials exists, a record of a routed tenant can never be taken for a shared one.
 */
@Injectable()
export class RouteDirectory implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly routes = new Map<string, RouteChangedV1>();
  private readonly confirmedShared = new Set<string>();
  private readonly listeners: RouteListener[] = [];
  private readonly tail: TopicTail<RouteChangedV1>;
  private markStarted!: (started: Promise<void>) => void;
  /** Settles once the whole topic as it was at start has been read (or reading it failed). */
  private readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(tails: TopicTails) {
    // A failed start fails the boot (below) and every question that awaits it; it is not unhandled.
    this.started.catch(() => undefined);
    this.tail = tails.tail({
      topic: TOPICS.tenancyRoutes.name,
      schema: routeChangedV1,
      onRecord: ({ payload }) => this.learn(payload),
    });
  }

  // At bootstrap, not module init: the app's KafkaModule creates the routes topic in its own init,
  // which Nest may run after this module's. Whoever asks before then waits for the start.
  async onApplicationBootstrap(): Promise<void> {
    const start = this.tail.start();
    this.markStarted(start);
    await start;
  }

  async onModuleDestroy(): Promise<void> {
    await this.tail.stop();
  }

  /** Told of every route as it arrives (pools and keys of a deprovisioned tenant are dropped on it). */
  onChange(listener: RouteListener): void {
    this.listeners.push(listener);
  }

  async placementOf(orgId: string): Promise<Placement> {
    return (await this.placementsOf([orgId])).get(orgId) as Placement;
  }

  /** The placements of a batch's organizations: one read to the topic's end if any is new to this process. */
  async placementsOf(orgIds: Iterable<string>): Promise<Map<string, Placement>> {
    const unique = [...new Set(orgIds)];
    if (unique.some((id) => !this.routes.has(id) && !this.confirmedShared.has(id))) {
      await this.started;
      await this.tail.caughtUp();
      for (const id of unique) if (!this.routes.has(id)) this.confirmedShared.add(id);
    }
    return new Map(unique.map((id) => [id, placementOf(this.routes.get(id), PRODUCT_SCHEMA_VERSION)]));
  }

  private learn(route: RouteChangedV1): void {
    this.routes.set(route.org_id, route);
    this.confirmedShared.delete(route.org_id);
    for (const listener of this.listeners) listener(route);
  }
}
