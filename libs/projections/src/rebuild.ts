import {
  dropRebuildSchema,
  finishRebuild,
  ownerDataSource,
  prepareRebuildSchema,
  swapInFinished,
} from '@agentwatch/db';
import { allSettledOrFirstError, createKafka, ProjectionDefinition } from '@agentwatch/kafka';
import { DataSource } from 'typeorm';
import { ProjectionStoreSettings } from './projector.module';
import { bootRebuildConsumers, RebuildConsumers } from './rebuild-consumers';
import { forkRebuildWorker } from './rebuild-worker';
import { tenantOwnerUrls, withTenantOwners } from './tenant-rebuilds';

export interface RebuildProgress {
  applied: number;
  total: number;
  elapsedSeconds: number;
}

export interface RebuildResult extends RebuildProgress {
  /** The records each consuming process applied, this one first; they add up to `applied`. */
  appliedByProcess: number[];
}

export interface RebuildOptions {
  /** Processes consuming, this one included: each takes a share of the topics' partitions. */
  workers?: number;
}

interface Target {
  topic: string;
  partition: number;
  low: bigint;
  high: bigint;
}

async function targetsOf(
  config: ProjectionStoreSettings,
  projections: ProjectionDefinition[],
): Promise<Map<string, Target[]>> {
  const admin = createKafka(config.kafka).admin();
  await admin.connect();
  try {
    const targets = new Map<string, Target[]>();
    for (const projection of projections) {
      const list: Target[] = [];
      for (const base of Object.keys(projection.topics)) {
        const topic = config.kafka.prefix + base;
        for (const p of await admin.fetchTopicOffsets(topic)) {
          list.push({ topic, partition: p.partition, low: BigInt(p.low), high: BigInt(p.high) });
        }
      }
      targets.set(projection.name, list);
    }
    return targets;
  } finally {
    await admin.disconnect();
  }
}

async function appliedSoFar(
  owner: DataSource,
  schema: string,
  group: (name: string) => string,
  targets: Map<string, Target[]>,
) {
  const rows: { consumer_group: string; topic: string; partition: number; next_offset: string }[] = await owner.query(
    `SELECT consumer_group, topic, partition, next_offset FROM ${schema}.projection_checkpoints`,
  );
  let applied = 0n;
  let done = true;
  for (const [name, list] of targets) {
    for (const t of list) {
      const row = rows.find(
        (r) => r.consumer_group === group(name) && r.topic === t.topic && r.partition === t.partition,
      );
      const next = row ? BigInt(row.next_offset) : t.low;
      applied += (next < t.high ? next : t.high) - t.low;
      if (next < t.high) done = false;
    }
  }
  return { applied: Number(applied), done };
}

/** Names a rebuild run's consumer group for a projection. */
const rebuildGroups = (config: ProjectionStoreSettings, run: string) => (name: string) =>
  `${config.kafka.prefix}${run}.${name}`;

/**
 * Runs the rebuild's consumers (this process's and the forked workers') until every target is
 * applied. All of them boot before any starts, so that they join the consumer groups together: a
 * process joining later takes a rebalance, which waits for the batches the others have in flight.
 */
async function consumeUpToTargets(
  config: ProjectionStoreSettings,
  owner: DataSource,
  run: string,
  projections: ProjectionDefinition[],
  {
    workers,
    started,
    onProgress,
  }: { workers: BootingWorkers; started: number; onProgress: (p: RebuildProgress) => void },
): Promise<{ progress: RebuildProgress; appliedByProcess: number[] }> {
  const group = rebuildGroups(config, run);
  const targets = await targetsOf(config, projections);
  const total = [...targets.values()].flat().reduce((sum, t) => sum + Number(t.high - t.low), 0);
  const consumers = [await bootRebuildConsumers(config, run, projections)];
  try {
    consumers.push(...(await workers.booted()));
    await Promise.all(consumers.map((c) => c.start()));
    for (;;) {
      const failure = consumers.map((c) => c.failure?.()).find((f) => f);
      if (failure) throw failure;
      // The shared database's checkpoints are the position: each tenant database commits before it.
      const { applied, done } = await appliedSoFar(owner, run, group, targets);
      const progress = { applied, total, elapsedSeconds: (Date.now() - started) / 1000 };
      onProgress(progress);
      if (done) return { progress, appliedByProcess: await closeAll(consumers) };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await closeAll(consumers);
    throw error;
  }
}

interface BootingWorkers {
  /** Every worker, once all have booted; rejects when one failed. */
  booted(): Promise<RebuildConsumers[]>;
  /** Stops every worker that booted (again, harmlessly, those already closed). */
  close(): Promise<void>;
}

/**
 * Forks `count` workers at once: each boots (a second process loading the app takes seconds) while
 * this one sets the rebuild up, and consumes only once started.
 */
function forkWorkers(
  count: number,
  config: ProjectionStoreSettings,
  run: string,
  projections: ProjectionDefinition[],
): BootingWorkers {
  // Settled as soon as they are forked: a worker failing while this process prepares is no unhandled rejection.
  const forked = Promise.allSettled(Array.from({ length: count }, () => forkRebuildWorker(config, run, projections)));
  const booted = async () => (await forked).flatMap((f) => (f.status === 'fulfilled' ? [f.value] : []));
  return {
    booted: async () => {
      const refused = (await forked).find((f) => f.status === 'rejected');
      if (refused) throw refused.reason;
      return booted();
    },
    close: async () => {
      await closeAll(await booted());
    },
  };
}

const closeAll = (consumers: RebuildConsumers[]) => Promise.all(consumers.map((c) => c.close()));

/**
 * Rebuilds read models from the start of their topics into fresh tables, up to the high watermarks
 * seen when it started, then swaps them in atomically. The live projector keeps serving and
 * projecting meanwhile; after the swap it continues from where the rebuild stopped.
 */
export async function rebuildProjections(
  config: ProjectionStoreSettings,
  projections: ProjectionDefinition[],
  onProgress: (progress: RebuildProgress) => void,
  { workers = 1 }: RebuildOptions = {},
): Promise<RebuildResult> {
  const started = Date.now();
  const run = `rebuild_${started.toString(36)}`;
  const forked = forkWorkers(workers - 1, config, run, projections);
  try {
    return await rebuildRun(config, projections, onProgress, { run, started, workers: forked });
  } finally {
    // Closed by now, unless the rebuild failed before its consumers took them over (a set-up step, or
    // another worker that did not boot).
    await forked.close();
  }
}

async function rebuildRun(
  config: ProjectionStoreSettings,
  projections: ProjectionDefinition[],
  onProgress: (progress: RebuildProgress) => void,
  { run, started, workers }: { run: string; started: number; workers: BootingWorkers },
): Promise<RebuildResult> {
  const group = rebuildGroups(config, run);
  const tables = projections.flatMap((p) => p.tables);
  const owner = await ownerDataSource(config.database).initialize();
  try {
    // A provisioned tenant's read models live in its own database: each is rebuilt there, in a schema
    // of the same name, by the same runner that routes the live projector's records (see ProjectionRunner).
    const tenantUrls = await tenantOwnerUrls(config);
    const withTenants = <R>(work: (tenants: DataSource[]) => Promise<R>) => withTenantOwners(config, tenantUrls, work);
    const inEveryDatabase = async (step: (db: DataSource) => Promise<unknown>) => {
      await step(owner);
      await withTenants(async (tenants) => {
        for (const tenant of tenants) await step(tenant);
      });
    };
    try {
      await inEveryDatabase((db) => prepareRebuildSchema(db, run, tables));
      const { progress, appliedByProcess } = await consumeUpToTargets(config, owner, run, projections, {
        workers,
        started,
        onProgress,
      });
      const groups = projections.map((p) => ({
        rebuild: group(p.name),
        live: `${config.kafka.prefix}projector.${p.name}`,
      }));
      await withTenants(async (tenants) => {
        // The shared database's copies and the tenant databases' are finished side by side, each on
        // its own connection: building the deferred indexes is most of a large replay's finish.
        await allSettledOrFirstError([
          finishRebuild(owner, run, tables),
          (async () => {
            for (const tenant of tenants) await finishRebuild(tenant, run, tables);
          })(),
        ]);
        // Each tenant database is swapped in while the shared database's swap holds the live
        // checkpoints: the live projector's transactions in a tenant database check those (see
        // TenantCommits), so none writes into swapped-in tables from a position the swap is replacing,
        // and once it commits the live projector reads again from the rebuild's end in every database.
        await swapInFinished(owner, run, tables, groups, async () => {
          for (const tenant of tenants) await swapInFinished(tenant, run, tables, groups);
        });
      });
      const admin = createKafka(config.kafka).admin();
      await admin.connect();
      await admin.deleteGroups(projections.map((p) => group(p.name))).catch(() => undefined);
      await admin.disconnect();
      return { ...progress, appliedByProcess, elapsedSeconds: (Date.now() - started) / 1000 };
    } catch (error) {
      await inEveryDatabase((db) => dropRebuildSchema(db, run));
      throw error;
    }
  } finally {
    await owner.destroy();
  }
}
