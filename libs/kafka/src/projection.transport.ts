import { INestApplicationContext, Inject, Injectable, Optional } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { lastValueFrom } from 'rxjs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { KafkaSettings } from './kafka.settings';
import { DEFAULT_CONCURRENCY, DEFAULT_FETCH_BYTES, ProjectionRunner } from './projection-runner';
import { ProjectionBatch } from './projection-types';
import { MemberRouting, RecordRouter } from './record-routing';
import { PayloadOpener } from './sealing';

export interface ProjectionDefinition {
  /** The `@EventPattern` of the handler that applies a batch, and the consumer group's suffix. */
  name: string;
  /** Base topic name → payload schema. */
  topics: Record<string, z.ZodType>;
  /** The read-model tables it writes: what a rebuild recreates and swaps in. */
  tables: string[];
  /**
   * Projections naming the same consumer share one Kafka consumer (`<prefix><app>.<consumer>`):
   * each record is fetched and decoded once for all of them, and their rows commit together. Each
   * keeps its own checkpoints. Default: a consumer of its own, named after the projection.
   */
  consumer?: string;
  /** Largest fetch per partition, which bounds a batch; default 2 MB (see ProjectionRunnerOptions). */
  fetchBytesPerPartition?: number;
  /** Partitions whose batches are applied at once; default 4. */
  concurrency?: number;
  /**
   * Everything it writes is derived from its topics, so its transactions need not wait for the WAL
   * flush (see ProjectionRunnerOptions.asynchronousCommit). A shared consumer commits asynchronously
   * only when all of its projections say so.
   */
  derivedOnly?: boolean;
  /**
   * Whose rows it writes: `routed` (the default) follows each organization's route to its database;
   * `shared` always writes the shared database (identity rows). Only matters where the app provides
   * a RecordRouter.
   */
  routing?: MemberRouting;
}

export interface TransportOptions {
  /** Names the consumer groups: `<prefix><app>.<projection>`. */
  app: string;
  /** Write into this rebuild schema instead of the live tables. */
  schema?: string;
  /** Overrides every projection's fetch size (a rebuild trades memory for speed). */
  fetchBytesPerPartition?: number;
  /** Routes each organization's records to its database; without one, everything goes to the DataSource. */
  router?: RecordRouter;
  /** Opens sealed record values; without one, values are read as they are. */
  opener?: PayloadOpener;
  /** Overrides every projection's partitions in flight (see ProjectionDefinition.concurrency). */
  concurrency?: number;
}

/**
 * A @nestjs/microservices transport whose unit of delivery is a batch: every `@EventPattern(name)`
 * handler receives a ProjectionBatch and writes its rows through `batch.tx`, inside the transaction
 * that advances the checkpoint. Checkpoints are kept per projection under `<prefix><app>.<projection>`;
 * Kafka consumer groups are `<prefix><app>.<consumer>` (see ProjectionDefinition.consumer).
 */
export class KafkaProjectionTransport extends Server implements CustomTransportStrategy {
  private readonly runners: ProjectionRunner<unknown>[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly dataSource: DataSource,
    private readonly settings: KafkaSettings,
    private readonly options: TransportOptions,
    private readonly projections: ProjectionDefinition[],
  ) {
    super();
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      const consumers = new Map<string, ProjectionDefinition[]>();
      for (const projection of this.projections) {
        const name = projection.consumer ?? projection.name;
        consumers.set(name, [...(consumers.get(name) ?? []), projection]);
      }
      for (const [consumer, projections] of consumers) {
        const runner = new ProjectionRunner(this.kafka, this.dataSource, {
          name: consumer,
          consumerGroup: this.groupOf(consumer),
          schema: this.options.schema,
          prefix: this.settings.prefix,
          sessionTimeoutMs: this.settings.sessionTimeoutMs,
          topics: Object.assign({}, ...projections.map((p) => p.topics)),
          asynchronousCommit: projections.every((p) => p.derivedOnly === true),
          router: this.options.router,
          opener: this.options.opener,
          concurrency:
            this.options.concurrency ?? Math.max(...projections.map((p) => p.concurrency ?? DEFAULT_CONCURRENCY)),
          fetchBytesPerPartition:
            this.options.fetchBytesPerPartition ??
            Math.min(...projections.map((p) => p.fetchBytesPerPartition ?? DEFAULT_FETCH_BYTES)),
          members: projections.map((projection) => {
            const handler = this.getHandlerByPattern(projection.name);
            if (!handler) throw new Error(`no @EventPattern('${projection.name}') handler is registered`);
            return {
              name: projection.name,
              group: this.groupOf(projection.name),
              topics: Object.keys(projection.topics),
              routing: projection.routing,
              apply: async (batch: ProjectionBatch) => {
                await lastValueFrom(this.transformToObservable(await handler(batch)), { defaultValue: undefined });
              },
            };
          }),
        });
        this.runners.push(runner);
        await runner.start();
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  private groupOf(name: string): string {
    return `${this.settings.prefix}${this.options.app}.${name}`;
  }

  async close(): Promise<void> {
    await Promise.all(this.runners.map((runner) => runner.stop()));
  }

  on(): never {
    throw new Error('KafkaProjectionTransport emits no status events');
  }

  unwrap<T>(): T {
    return this.runners as T;
  }
}

/**
 * What a routed app's projection transport needs from its container: its RecordRouter, provided
 * beside this, and the PayloadOpener when the app has one. (Nest's app.get cannot ask for a provider
 * that may be missing: it ends the process.)
 */
@Injectable()
export class ProjectionRouting {
  constructor(
    @Inject(RecordRouter) readonly router: RecordRouter,
    @Optional() @Inject(PayloadOpener) readonly opener?: PayloadOpener,
  ) {}

  /** The transport options it stands for. */
  static of(app: INestApplicationContext): Pick<TransportOptions, 'router' | 'opener'> {
    const { router, opener } = app.get(ProjectionRouting);
    return { router, opener };
  }
}

/**
 * The transport for an app whose container provides Kafka, its settings and the projector's
 * DataSource. An app with cells adds `ProjectionRouting.of(app)` to the options.
 */
export const projectionTransport = (
  app: INestApplicationContext,
  options: TransportOptions,
  projections: ProjectionDefinition[],
) => new KafkaProjectionTransport(app.get(Kafka), app.get(DataSource), app.get(KafkaSettings), options, projections);
