import { AuthConfig, authConfigFromEnv, authEnv } from '@agentwatch/auth';
import { parseConfig, text, textVariables } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { Cell, cellsProblems, parseCells } from '@agentwatch/tenancy';
import { z } from 'zod';

// The CLI validates the variables of the infrastructure a command reaches, with the apps' fragments
// and parser: a bad value ends the command (exit 1) naming the variable, before anything connects.
// A command validates only what it uses: `export` runs with a broken DATABASE_URL, as it always has;
// `setup` and `dev-token` read the identity provider's variables, as the cloud API does.

export interface CliConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  auth: AuthConfig;
  /** The control plane's cells (CONTROL_CELLS, as the control plane reads it); needs `database`. */
  cells: Cell[];
}

export type CliNeed = keyof CliConfig;

/** The schema of the variables `needs` reads; `clientId` names the CLI to the broker. */
export function cliConfigSchema<N extends CliNeed>(needs: readonly N[], clientId: string) {
  const database = (needs as readonly CliNeed[]).includes('database');
  const kafka = (needs as readonly CliNeed[]).includes('kafka');
  const auth = (needs as readonly CliNeed[]).includes('auth');
  const cells = (needs as readonly CliNeed[]).includes('cells');
  const cellsEnv = {
    CONTROL_CELLS: text().superRefine((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return;
      for (const message of cellsProblems(raw)) ctx.addIssue({ code: 'custom', message });
    }),
  };
  const shape = {
    ...(database || cells ? databaseEnv : {}),
    ...(kafka ? kafkaEnv : {}),
    ...(auth ? authEnv : {}),
    ...(cells ? cellsEnv : {}),
  };
  return z.object(shape).transform((env) => {
    const vars = textVariables(env);
    const databaseConfig = database || cells ? databaseConfigFromEnv(vars) : null;
    return {
      ...(database ? { database: databaseConfig } : {}),
      ...(kafka ? { kafka: kafkaSettingsFromEnv(clientId, vars) } : {}),
      ...(auth ? { auth: authConfigFromEnv(vars) } : {}),
      ...(cells ? { cells: parseCells(vars.CONTROL_CELLS, (databaseConfig as DatabaseConfig).adminUrl) } : {}),
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
