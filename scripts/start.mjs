#!/usr/bin/env node
// `npm start`: installs, builds, starts Kafka (unless KAFKA_BROKERS is set) and Postgres if stopped,
// migrates, creates topics, runs every app as its own process, and prints how to use the stack.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  appEnv,
  appNodeFlags,
  build,
  cli,
  DEFAULT_DATABASE_URL,
  die,
  ensureCellServer,
  ensureDependencies,
  ensureKafka,
  ensurePostgres,
  root,
  say,
} from './lib.mjs';

const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL };
const apiPort = env.CLOUD_API_PORT ?? '8080';
const projectorPort = env.PROJECTOR_PORT ?? '8083';

ensureDependencies();
build();
await ensurePostgres(env.DATABASE_URL);
ensureCellServer();
ensureKafka();
cli(['setup'], env);

// A development organization with a deploy token, created once and kept in the ignored .local/ dir
// (mode 600) so that the printed curl commands work on every start.
const devOrgFile = path.join(root, '.local', 'dev-org.json');
if (!fs.existsSync(devOrgFile)) {
  const created = spawnSync('node', ['dist/apps/cli/src/main.js', 'create-org', '--name', 'local development'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (created.status !== 0) die(`creating the development organization failed:\n${created.stderr}`);
  fs.mkdirSync(path.dirname(devOrgFile), { recursive: true });
  fs.writeFileSync(devOrgFile, created.stdout, { mode: 0o600 });
}
const devOrg = JSON.parse(fs.readFileSync(devOrgFile, 'utf8'));
// The product console's development sign-in page offers this organization.
env.CONSOLE_DEV_ORGANIZATIONS ??= JSON.stringify([{ id: devOrg.organization.id, name: devOrg.organization.name }]);

const colors = {
  'cloud-api': 32,
  projector: 35,
  'scoring-api': 33,
  'scoring-worker': 34,
  'control-plane': 36,
  'product-console': 92,
  'operator-console': 96,
};
const children = Object.keys(colors).map((app) => {
  const child = spawn(process.execPath, [...appNodeFlags(app), `dist/apps/${app}/src/main.js`], {
    cwd: root,
    env: appEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `\x1b[${colors[app]}m[${app}]\x1b[0m `;
  const relay = (stream, out) => stream.on('data', (chunk) => out.write(chunk.toString().replace(/^(?=.)/gm, prefix)));
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (!stopping) die(`${app} exited (${signal ?? code}); see its output above`);
  });
  return child;
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    say('stopping the apps (the Kafka broker keeps running: npm run kafka:stop)…');
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
  });
}

const apiUrl = `http://127.0.0.1:${apiPort}`;
const consoleUrl = `http://127.0.0.1:${env.CONSOLE_PORT ?? '8090'}`;
const operatorConsoleUrl = `http://127.0.0.1:${env.OPERATOR_CONSOLE_PORT ?? '8091'}`;
// The consoles answer /health as soon as they listen; their /ready also needs the web build.
const waits = [
  [`${apiUrl}/ready`, 'the cloud API'],
  [`${consoleUrl}/health`, 'the product console'],
  [`${operatorConsoleUrl}/health`, 'the operator console'],
];
const deadline = Date.now() + 60_000;
for (const [url, what] of waits) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) die(`${what} did not answer ${url} within 60 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const token = devOrg.deploy_token.token;
const session = '6c3f1e2a-9b8d-5c7e-a1f0-2d3c4b5a6978';
const now = new Date().toISOString();
// The development identity provider runs only while no real one is configured (docs/operations.md).
const devSignIn =
  env.CONSOLE_OIDC_ISSUER || env.AUTH_JWKS_URL ? '' : ' — sign in with the development identity provider';
say(`ready.
  Product console ${consoleUrl}${devSignIn}
  Operator console ${operatorConsoleUrl}
  cloud API   ${apiUrl}   (OpenAPI: ${apiUrl}/docs, ${apiUrl}/openapi.json)
  projector   http://127.0.0.1:${projectorPort}/ready
  scoring API http://127.0.0.1:${env.SCORING_API_PORT ?? '8081'}   (OpenAPI: /docs; X-API-Key from POST /v1/api-keys)
  control plane http://127.0.0.1:${env.CONTROL_PLANE_PORT ?? '8082'}   (operators; OpenAPI: /docs)
  Kafka       ${env.KAFKA_BROKERS ?? '127.0.0.1:9092'}     Postgres ${env.DATABASE_URL}
  dev organization ${devOrg.organization.id}, deploy token in .local/dev-org.json

Ingest a sample batch:
  curl -s -X POST ${apiUrl}/v1/events/ingest -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' \\
    -d '{"events":[{"action_type":"PROCESS_EXEC","timestamp":"${now}","tool_name":"bash","arguments":["-c","ls"],"session_id":"${session}","agent_id":"claude-code"},{"action_type":"FILE_READ","timestamp":"${now}","tool_name":"cat","arguments":["/etc/hosts"],"session_id":"${session}","agent_id":"claude-code"}]}'
Read it back:
  curl -s ${apiUrl}/v1/sessions/${session}/events -H 'Authorization: Bearer ${token}'

A JWT for the management routes (POST /v1/tenant, /v1/deploy-tokens):
  npm run cli -- dev-token --sub you --org ${devOrg.organization.id}

Ctrl-C stops the apps.`);
