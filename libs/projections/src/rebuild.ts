import {
  dropRebuildSchema,
  finishRebuild,
  ownerDataSource,
  prepareRebuildSchema,
  swapInFinished,
} from '@agentwatch/db';
import { createKafka, ProjectionDefinition } from '@agentwatch/kafka';
import { DataSource } from 'typeorm';
import { ProjectionStoreSettings } from './projector.module';
import { startRebuildConsumers } from './rebuild-consumers';
import { forkRebuildWorker } from './rebuild-worker';
import { tenantOwnerDataSources } from './tenant-rebuilds';

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
  const group = (name: string) => `${config.kafka.prefix}${run}.${name}`;
  const tables = projections.flatMap((p) => p.tables);
  const owner = await ownerDataSource(config.database).initialize();
  // A provisioned tenant's read models live in its own database: each is rebuilt there, in a schema of
  // the same name, by the same runner that routes the live projector's records (see ProjectionRunner).
  const tenants = await tenantOwnerDataSources(config).catch(async (error) => {
    await owner.destroy();
    throw error;
  });
  const databases = [owner, ...tenants];
  try {
    for (const db of databases) await prepareRebuildSchema(db, run, tables);
    const targets = await targetsOf(config, projections);
    const total = [...targets.values()].flat().reduce((sum, t) => sum + Number(t.high - t.low), 0);
    const consumers = [await startRebuildConsumers(config, run, projections)];
    let progress: RebuildProgress;
    let appliedByProcess: number[];
    try {
      // Started together (each takes a second or two to boot); those that started are closed below
      // even when another did not.
      const forked = await Promise.allSettled(
        Array.from({ length: workers - 1 }, () => forkRebuildWorker(config, run, projections)),
      );
      for (const f of forked) if (f.status === 'fulfilled') consumers.push(f.value);
      const refused = forked.find((f) => f.status === 'rejected');
      if (refused) throw refused.reason;
      for (;;) {
        const failure = consumers.map((c) => c.failure?.()).find((f) => f);
        if (failure) throw failure;
        // The shared database's checkpoints are the position: each tenant database commits before it.
        const { applied, done } = await appliedSoFar(owner, run, group, targets);
        progress = { applied, total, elapsedSeconds: (Date.now() - started) / 1000 };
        onProgress(progress);
        if (done) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      appliedByProcess = await Promise.all(consumers.map((c) => c.close()));
    }
    const groups = projections.map((p) => ({
      rebuild: group(p.name),
      live: `${config.kafka.prefix}projector.${p.name}`,
    }));
    for (const db of databases) await finishRebuild(db, run, tables);
    // Each tenant database is swapped in while the shared database's swap holds the live checkpoints:
    // the live projector's transactions in a tenant database check those (see TenantCommits), so none
    // writes into swapped-in tables from a position the swap is replacing, and once it commits the
    // live projector reads again from the rebuild's end in every database.
    await swapInFinished(owner, run, tables, groups, async () => {
      for (const tenant of tenants) await swapInFinished(tenant, run, tables, groups);
    });
    const admin = createKafka(config.kafka).admin();
    await admin.connect();
    await admin.deleteGroups(projections.map((p) => group(p.name))).catch(() => undefined);
    await admin.disconnect();
    return { ...progress, appliedByProcess, elapsedSeconds: (Date.now() - started) / 1000 };
  } catch (error) {
    for (const db of databases) await dropRebuildSchema(db, run);
    throw error;
  } finally {
    for (const db of databases) await db.destroy();
  }
}
