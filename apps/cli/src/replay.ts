import { parseConfig, textVariables } from '@agentwatch/config';
import { databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { ProjectionStoreSettings, rebuildProjections, selectProjections } from '@agentwatch/projections';
import { Command } from 'commander';
import { z } from 'zod';
import { progressReporter } from './progress';

// The projector's database and broker variables, validated the way the projector validates them: a
// rebuild writes into the projector's tables and continues its consumer groups.
const replayConfigSchema = z.object({ ...databaseEnv, ...kafkaEnv }).transform((env) => ({
  database: databaseConfigFromEnv(textVariables(env)),
  kafka: kafkaSettingsFromEnv('agentwatch-projector', textVariables(env)),
}));

function replayConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProjectionStoreSettings {
  return parseConfig(replayConfigSchema, env);
}

/** `agentwatch replay --projection <names…>`: rebuild read models beside the live ones, then swap them in. */
export function replayCommand(): Command {
  return new Command('replay')
    .description('rebuild read models from offset 0 into fresh tables, then swap them in atomically')
    .requiredOption('--projection <names...>', `projection name(s), or all`)
    .action(async (options: { projection: string[] }) => {
      const config = replayConfigFromEnv();
      const projections = selectProjections(options.projection);
      const report = progressReporter();
      const done = await rebuildProjections(config, projections, report);
      const rate = Math.round(done.applied / Math.max(done.elapsedSeconds, 0.001));
      console.error(
        `\nrebuilt ${projections.map((p) => p.name).join(', ')}: ${done.applied} records in ${done.elapsedSeconds.toFixed(1)}s (${rate} records/s), swapped in`,
      );
    });
}
