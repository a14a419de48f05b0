import { createHttpApp } from '@agentwatch/http';
import { metrics, ProjectionDefinition, ProjectionRouting, projectionTransport } from '@agentwatch/kafka';
import { ProjectionStoreSettings, ProjectorModule } from './projector.module';

/**
 * A rebuild's consumers in one process, booted: they join the run's consumer groups on start, and
 * stop taking batches, and leave the groups, on close.
 */
export interface RebuildConsumers {
  start(): Promise<void>;
  /** Resolves to the records they applied (each counted once per projection, as the rebuild counts). */
  close(): Promise<number>;
  /** Why they stopped on their own (another process's ended), or null while they run. */
  failure?: () => Error | null;
}

/**
 * The projections' consumers of rebuild `run`, writing into its schema, booted but not consuming:
 * booting takes seconds, joining a group with batches in flight takes a rebalance, so the processes
 * of a run boot first and start together. Every process that starts them for the same run joins the
 * same consumer groups, so Kafka shares the partitions out among them; each batch commits with its
 * checkpoint, whichever process applies it.
 */
export async function bootRebuildConsumers(
  config: ProjectionStoreSettings,
  run: string,
  projections: ProjectionDefinition[],
): Promise<RebuildConsumers> {
  const app = await createHttpApp(ProjectorModule.forRoot(config), {
    title: 'rebuild',
    description: 'rebuild',
    logger: ['error', 'warn'],
  });
  app.connectMicroservice(
    // A rebuild is a batch job reading from offset 0: larger fetches make it faster, and it runs alone.
    {
      strategy: projectionTransport(
        app,
        { app: run, schema: run, fetchBytesPerPartition: 8 * 1024 * 1024, ...ProjectionRouting.of(app) },
        projections,
      ),
    },
    { inheritAppConfig: true },
  );
  const before = await appliedInThisProcess();
  await app.init();
  return {
    start: async () => {
      await app.startAllMicroservices();
    },
    close: async () => {
      await app.close();
      return (await appliedInThisProcess()) - before;
    },
  };
}

/** Records the projections of this process have committed so far (the runners count them after each commit). */
async function appliedInThisProcess(): Promise<number> {
  return (await metrics.projectedRecords.get()).values.reduce((sum, { value }) => sum + value, 0);
}
