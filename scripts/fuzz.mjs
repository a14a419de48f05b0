#!/usr/bin/env node
// `npm run fuzz -- --runs N --seed S`: the property-based suites (test/fuzz) with a larger budget or
// another seed, on the same set-up as `npm test`. N is the runs of a property that `npm test` runs
// 100 times; properties that cost more scale with it.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { die, root } from './lib.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '1000' }, seed: { type: 'string' } },
  strict: true,
});
const runs = Number(values.runs);
if (!(runs > 0)) die(`--runs takes a positive number, got ${values.runs}`);
const seed = values.seed ?? String(Date.now() % 2 ** 31);
if (!Number.isInteger(Number(seed))) die(`--seed takes an integer, got ${values.seed}`);
console.log(
  `fuzz: ${runs} runs per property, seed ${seed} (replay with: npm run fuzz -- --runs ${runs} --seed ${seed})`,
);
const result = spawnSync('node', ['scripts/test.mjs', '--testTimeout=3600000', 'test/fuzz'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: seed },
});
process.exit(result.status ?? 1);
