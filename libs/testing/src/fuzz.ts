/**
 * Budget of the property-based suites: small and fixed in `npm test`, so a run is repeatable and
 * bounded; `npm run fuzz -- --runs N --seed S` raises it (through FUZZ_RUNS and FUZZ_SEED).
 */
export interface FuzzBudget {
  seed: number;
  /** Runs of each property, scaled by `weight` (a property that costs a stack round trip runs fewer). */
  runs: (weight?: number) => number;
}

const DEFAULT_SEED = 20261124;

export function fuzzBudget(env: NodeJS.ProcessEnv = process.env): FuzzBudget {
  const seed = env.FUZZ_SEED === undefined ? DEFAULT_SEED : Number(env.FUZZ_SEED);
  const scale = env.FUZZ_RUNS === undefined ? 1 : Number(env.FUZZ_RUNS) / 100;
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${env.FUZZ_SEED}`);
  if (!(scale > 0)) throw new Error(`FUZZ_RUNS must be a positive number, got ${env.FUZZ_RUNS}`);
  return { seed, runs: (weight = 100) => Math.max(1, Math.round(weight * scale)) };
}

export interface ReplayableRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A request as a copy-paste `curl` command: how a shrunk counterexample is reported. */
export function asCurl({ method, url, headers = {}, body }: ReplayableRequest): string {
  const parts = ['curl', '-sS', '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-binary', shellQuote(body));
  return parts.join(' ');
}
