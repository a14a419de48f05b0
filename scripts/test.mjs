#!/usr/bin/env node
// `npm test`: installs, builds, lints, starts Kafka and Postgres as needed, then runs the unit,
// integration and end-to-end suites, the browser tests (Playwright) and the fault tests. Each run works
// in its own database and its own topic prefix, so a rerun on a used machine behaves like a first run.
// Extra arguments go to jest; `--browser` runs the browser tests alone.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  build,
  cli,
  DEFAULT_DATABASE_URL,
  die,
  ensureCellServer,
  ensureChromium,
  ensureDependencies,
  ensureKafka,
  ensureKcat,
  ensurePostgres,
  managesLocalBroker,
  root,
  run,
  say,
} from './lib.mjs';

const started = Date.now();
const runId = started.toString(36);
const baseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const databaseUrl = new URL(baseUrl);
databaseUrl.pathname = `/agentwatch_test_${runId}`;
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl.toString(),
  KAFKA_TOPIC_PREFIX: `test-${runId}.`,
  KAFKA_PARTITIONS: process.env.KAFKA_PARTITIONS ?? '4',
  AGENTWATCH_TEST_RUN: runId,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};

ensureDependencies();
build();
say('lint: biome + dependency-cruiser; types: tsc');
run('npm', ['run', '--silent', 'lint'], { what: 'lint' });
run('npm', ['run', '--silent', 'typecheck'], { what: 'typecheck' });
ensureKcat();
ensureChromium();
await ensurePostgres(baseUrl);
ensureCellServer();
const startedKafka = ensureKafka();

const pg = (await import('pg')).default;
async function dropStaleTestDatabases() {
  // Databases of earlier runs that died before their teardown, older than three hours.
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE 'agentwatch\\_test\\_%'`);
  for (const { datname } of rows) {
    const born = Number.parseInt(datname.slice('agentwatch_test_'.length), 36);
    if (Number.isFinite(born) && started - born > 3 * 3600_000) {
      await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
  }
  await client.end();
}
await dropStaleTestDatabases();

say(`test run ${runId}: database ${databaseUrl.pathname.slice(1)}, topic prefix ${env.KAFKA_TOPIC_PREFIX}`);
cli(['setup'], env);

function runJest(phase, args) {
  const report = path.join(root, '.local', `jest-${runId}-${phase}.json`);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  const jest = spawnSync('npx', ['jest', '--ci', '--json', `--outputFile=${report}`, ...args], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  if (!fs.existsSync(report))
    return { status: jest.status ?? 1, passed: 0, failed: 0, total: 0, suitesPassed: 0, suitesFailed: 1 };
  const results = JSON.parse(fs.readFileSync(report, 'utf8'));
  fs.rmSync(report);
  return {
    status: jest.status,
    passed: results.numPassedTests,
    failed: results.numFailedTests,
    total: results.numTotalTests,
    suitesPassed: results.numPassedTestSuites,
    suitesFailed: results.numFailedTestSuites,
  };
}

// Playwright's own counts, in the shape of runJest's, from its JSON reporter.
function runBrowserTests() {
  const report = path.join(root, '.local', 'playwright', 'results.json');
  fs.rmSync(report, { force: true });
  const playwright = spawnSync('npx', ['playwright', 'test', '--config', 'test/browser/playwright.config.ts'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  if (!fs.existsSync(report))
    return { status: playwright.status ?? 1, passed: 0, failed: 0, total: 0, suitesPassed: 0, suitesFailed: 1 };
  const { stats, errors } = JSON.parse(fs.readFileSync(report, 'utf8'));
  const failed = stats.unexpected + stats.flaky + (errors?.length ?? 0);
  return {
    status: playwright.status,
    passed: stats.expected,
    failed,
    total: stats.expected + stats.unexpected + stats.flaky + stats.skipped,
    suitesPassed: failed === 0 ? 1 : 0,
    suitesFailed: failed === 0 ? 0 : 1,
  };
}

const extraArgs = process.argv.slice(2);
const phases = [];
if (extraArgs[0] === '--browser') {
  phases.push(runBrowserTests());
} else if (extraArgs.length > 0) {
  phases.push(runJest('selected', ['--maxWorkers=2', ...extraArgs]));
} else {
  phases.push(runJest('main', ['--maxWorkers=2', '--selectProjects', 'unit', 'integration', 'e2e']));
  say('browser phase: Playwright drives Chromium through both consoles against the whole stack');
  phases.push(runBrowserTests());
  // The fault phase takes the broker or the run's database down, or compares latencies, so its tests
  // run alone, one at a time; the broker is stopped only when this run manages it.
  const faultArgs = ['--runInBand', '--selectProjects', 'faults'];
  if (managesLocalBroker()) {
    say('fault phase: tests that take the broker or the database down, or compare latencies, one at a time');
  } else {
    say('fault phase: broker-outage test not run (the broker in use is not run by this checkout)');
    faultArgs.push('--testPathIgnorePatterns', 'broker-outage');
  }
  phases.push(runJest('faults', faultArgs));
}

spawnSync('node', ['dist/apps/cli/src/main.js', 'teardown-test-run', '--prefix', env.KAFKA_TOPIC_PREFIX], {
  cwd: root,
  stdio: 'inherit',
  env,
});
if (startedKafka) spawnSync('node', ['scripts/kafka.mjs', 'stop'], { cwd: root, stdio: 'inherit' });

const sum = (key) => phases.reduce((total, phase) => total + phase[key], 0);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\nnpm test took ${seconds}s; suites: ${sum('suitesPassed')} passed, ${sum('suitesFailed')} failed`);
console.log(`tests: ${sum('passed')} passed, ${sum('failed')} failed`);
if (phases.some((phase) => phase.status !== 0) || sum('failed') > 0 || sum('total') === 0) {
  die(sum('total') === 0 ? 'jest ran no test' : 'some tests failed (see above)');
}
