import { availableParallelism } from 'node:os';
import { rebuildProjections, selectProjections } from '@agentwatch/projections';
import { Command, InvalidArgumentError } from 'commander';
import { cliConfigFromEnv } from './config';
import { progressReporter } from './progress';

/** `agentwatch replay --projection <names…>`: rebuild read models beside the live ones, then swap them in. */
export function replayCommand(): Command {
  return new Command('replay')
    .description('rebuild read models from offset 0 into fresh tables, then swap them in atomically')
    .requiredOption('--projection <names...>', `projection name(s), or all`)
    .option(
      '--workers <n>',
      'processes consuming the topics, this one included (default: one per core, at most one per partition)',
      (value) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number of at least 1');
        return n;
      },
    )
    .action(async (options: { projection: string[]; workers?: number }) => {
      // The projector's client id: a rebuild writes into the projector's tables and continues its consumer groups.
      const config = cliConfigFromEnv(['database', 'kafka'], 'agentwatch-projector');
      const projections = selectProjections(options.projection);
      const report = progressReporter();
      const workers = options.workers ?? Math.min(availableParallelism(), config.kafka.partitions);
      const done = await rebuildProjections(config, projections, report, { workers });
      const rate = Math.round(done.applied / Math.max(done.elapsedSeconds, 0.001));
      console.error(
        `\nrebuilt ${projections.map((p) => p.name).join(', ')}: ${done.applied} records in ${done.elapsedSeconds.toFixed(1)}s (${rate} records/s, ${processes(done.appliedByProcess)}), swapped in`,
      );
    });
}

/** "1 process", or "2 processes: 700 + 500" (the records each applied). */
const processes = (applied: number[]) =>
  applied.length === 1 ? '1 process' : `${applied.length} processes: ${applied.join(' + ')}`;
