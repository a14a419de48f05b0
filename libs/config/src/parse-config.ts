import { z } from 'zod';

/** A configuration the app cannot start with; the message names every offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with an app's schema. Rules that span variables and live in the libraries'
 * builders (they throw plain errors naming the variables) are reported the same way.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  let result: ReturnType<S['safeParse']>;
  try {
    result = schema.safeParse(env) as ReturnType<S['safeParse']>;
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`));
  }
  return result.data as z.output<S>;
}

/** The text-valued variables of a validated environment, for the libraries' builders that read them. */
export function textVariables(env: Record<string, unknown>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => typeof value === 'string')) as NodeJS.ProcessEnv;
}
