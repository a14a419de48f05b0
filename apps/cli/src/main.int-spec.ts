import { spawn } from 'node:child_process';
import path from 'node:path';
import { infrastructureEnv } from '@agentwatch/testing';

// The built CLI, as an operator runs it: a bad variable ends the command before it connects anywhere.
const main = path.join(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe('the built CLI with an invalid configuration', () => {
  it('exits 1 naming the variable and what it expected, on stderr', async () => {
    const env = { ...infrastructureEnv(), KAFKA_PARTITIONS: 'twelve' };
    const { code, stderr } = await runCli(['export', '--topic', 'ingest.events.v1'], env);
    expect(code).toBe(1);
    expect(stderr).toContain('agentwatch: invalid configuration');
    expect(stderr).toContain('KAFKA_PARTITIONS: expected a positive integer (partitions), got "twelve"');
  });

  it('refuses a replay with fewer than one worker process, before it connects anywhere', async () => {
    const { code, stderr } = await runCli(['replay', '--projection', 'all', '--workers', '0'], infrastructureEnv());
    expect(code).toBe(1);
    expect(stderr).toContain("option '--workers <n>' argument '0' is invalid. a whole number of at least 1");
  });

  it('names a bad DATABASE_URL for a command that reads the database', async () => {
    const env = { ...infrastructureEnv(), DATABASE_URL: 'mysql://127.0.0.1/agentwatch' };
    const { code, stderr } = await runCli(['create-org', '--name', 'never-created'], env);
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL: expected a postgres or postgresql URL, got "mysql://127.0.0.1/agentwatch"');
  });

  it('names an invalid AUTH_HS256_SECRET for dev-token, without echoing it', async () => {
    const env = { ...infrastructureEnv(), AUTH_HS256_SECRET: 'too-short-to-sign' };
    const { code, stderr } = await runCli(['dev-token', '--sub', 'alice'], env);
    expect(code).toBe(1);
    expect(stderr).toContain('AUTH_HS256_SECRET: expected at least 32 characters, got 17');
    expect(stderr).not.toContain('too-short-to-sign');
  });

  it('names the audience a key set leaves unpinned, before setup touches the database', async () => {
    const env = {
      ...infrastructureEnv(),
      AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      AUTH_JWT_ISSUER: 'https://idp.example/',
      AUTH_JWT_AUDIENCE: '',
      DATABASE_URL: 'postgres://127.0.0.1:1/never_created',
    };
    const { code, stderr } = await runCli(['setup'], env);
    expect(code).toBe(1);
    expect(stderr).toContain('agentwatch: invalid configuration');
    expect(stderr).toContain('AUTH_JWT_AUDIENCE: expected a value while AUTH_JWKS_URL is set');
  });
});
