import { rebuildProjections, selectProjections } from '@agentwatch/projections';
import { Command } from 'commander';
import { cliConfigFromEnv } from './config';
import { progressReporter } from './progress';

/** `agentwatch replay --projection <names…>`: rebuild read models beside the live ones, then swap them in. */
export function replayCommand(): Command {
  return new Command('replay')
    .description('rebuild read models from offset 0 into fresh tables, then swap them in atomically')
    .requiredOption('--projection <names...>', `projection name(s), or all`)
    .action(async (options: { projection: string[] }) => {
      // The projector's client id: a rebuild writes into the projector's tables and continues its consumer groups.
      const config = cliConfigFromEnv(['database', 'kafka'], 'agentwatch-projector');
      const projections = selectProjections(options.projection);
      const report = progressReporter();
      const done = await rebuildProjections(config, projections, report);
      const rate = Math.round(done.applied / Math.max(done.elapsedSeconds, 0.001));
      console.error(
        `\nrebuilt ${projections.map((p) => p.name).join(', ')}: ${done.applied} records in ${done.elapsedSeconds.toFixed(1)}s (${rate} records/s), swapped in`,
      );
    });
}
