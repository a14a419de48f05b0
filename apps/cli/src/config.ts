import { parseConfig, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { z } from 'zod';

// The CLI validates the variables of the infrastructure a command reaches, with the apps' fragments
// and parser: a bad value ends the command (exit 1) naming the variable, before anything connects.
// A command validates only what it uses: `export` runs with a broken DATABASE_URL, as it always has.

export interface CliConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
}

export type CliNeed = keyof CliConfig;

/** The schema of the variables `needs` reads; `clientId` names the CLI to the broker. */
export function cliConfigSchema<N extends CliNeed>(needs: readonly N[], clientId: string) {
  const database = (needs as readonly CliNeed[]).includes('database');
  const kafka = (needs as readonly CliNeed[]).includes('kafka');
  return z.object({ ...(database ? databaseEnv : {}), ...(kafka ? kafkaEnv : {}) }).transform((env) => {
    const vars = textVariables(env);
    return {
      ...(database ? { database: databaseConfigFromEnv(vars) } : {}),
      ...(kafka ? { kafka: kafkaSettingsFromEnv(clientId, vars) } : {}),
    } as Pick<CliConfig, N>;
  });
}

/** Parses once, at the start of a command; throws a ConfigError naming every offending variable. */
export function cliConfigFromEnv<N extends CliNeed>(
  needs: readonly N[],
  clientId = 'agentwatch-cli',
  env: NodeJS.ProcessEnv = process.env,
): Pick<CliConfig, N> {
  return parseConfig(cliConfigSchema(needs, clientId), env);
}
