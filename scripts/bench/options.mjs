// Command-line options of `npm run bench`. Quick mode fits in about two minutes on a 2-core machine;
// full mode is the N = 10,000,000.
import { parseArgs } from 'node:util';

const MODES = {
  quick: {
    alone: 40_000,
    events: 40_000,
    small: 5_000,
    duration: 15,
    daemons: 200,
    rate: 2_000,
    freshness: 12,
    queries: 100,
    perf: 200_000,
  },
  default: {
    alone: 200_000,
    events: 500_000,
    small: 50_000,
    duration: 30,
    daemons: 500,
    rate: 10_000,
    freshness: 30,
    queries: 300,
    perf: 1_000_000,
  },
  full: {
    alone: 1_000_000,
    events: 10_000_000,
    small: 200_000,
    duration: 60,
    daemons: 2_000,
    rate: 10_000,
    freshness: 60,
    queries: 1_000,
    perf: 10_000_000,
  },
};

export function benchOptions(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      full: { type: 'boolean' },
      events: { type: 'string' },
      duration: { type: 'string' },
      daemons: { type: 'string' },
      batch: { type: 'string' },
      rate: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      provisioned: { type: 'string' },
      'cpu-prof': { type: 'boolean' },
      'no-build': { type: 'boolean' },
      'keep-database': { type: 'boolean' },
      'postgres-as-is': { type: 'boolean' },
    },
  });
  const mode = values.full ? 'full' : values.quick ? 'quick' : 'default';
  const base = MODES[mode];
  const num = (v, fallback) => (v === undefined ? fallback : Number(v));
  return {
    mode,
    /** Items of the first phase: batch 500 to the cloud API alone, the projector not started yet. */
    aloneEvents: base.alone,
    /** Items sent by the batch-500 accept-rate phase (the table's N grows by every phase's items). */
    events: num(values.events, base.events),
    /** Items of the batch-50 phase: small batches cost per request, so fewer are enough. */
    smallEvents: base.small,
    durationS: num(values.duration, base.duration),
    daemons: num(values.daemons, base.daemons),
    batch: num(values.batch, 500),
    /** Offered load of the freshness phase, items/s. */
    rate: num(values.rate, base.rate),
    freshnessS: base.freshness,
    queries: base.queries,
    perfRecords: base.perf,
    organizations: 100,
    /** Of those, provisioned tenants: a database of their own, spread over the two cells' servers. */
    provisioned: num(values.provisioned, 20),
    /** Requests in flight at once (daemons posting at the same moment). */
    concurrency: num(values.concurrency, 8),
    seed: num(values.seed, 7),
    cpuProf: values['cpu-prof'] ?? false,
    build: !values['no-build'],
    keepDatabase: values['keep-database'] ?? false,
    /** Run on the shared server's own checkpoint settings instead of the bench's write-heavy ones. */
    postgresAsIs: values['postgres-as-is'] ?? false,
  };
}
