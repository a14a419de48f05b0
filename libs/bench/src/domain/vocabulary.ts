import type { ActionType, Decision } from '@agentwatch/contracts';

/** Roughly what coding agents do: mostly reads and commands, few deletes, some network. */
export const ACTION_MIX: readonly (readonly [ActionType, number])[] = [
  ['FILE_READ', 35],
  ['PROCESS_EXEC', 30],
  ['FILE_WRITE', 15],
  ['NETWORK_CONNECT', 15],
  ['FILE_DELETE', 5],
];

export const DECISION_MIX: readonly (readonly [Decision | undefined, number])[] = [
  [undefined, 40],
  ['allow', 55],
  ['warn', 3],
  ['block', 2],
];

export const AGENTS = ['claude-code', 'cursor', 'codex', 'aider', 'copilot-agent'] as const;
export const MODELS = ['claude-sonnet-4', 'gpt-5', 'gemini-2.5-pro', 'o4-mini'] as const;
export const PLATFORMS = ['darwin', 'linux', 'windows'] as const;
export const ARCHES = ['arm64', 'x64'] as const;

export const PROJECT_FILES = [
  'src/index.ts',
  'src/server/routes.ts',
  'src/lib/db.ts',
  'package.json',
  'README.md',
  'tests/api.spec.ts',
  'Cargo.toml',
  'src/main.rs',
  'app/models/user.py',
  'docker-compose.yml',
  'Makefile',
  '.github/workflows/ci.yml',
] as const;

/** Paths the scoring rules treat as keys or credentials: a realistic few percent of reads hit them. */
export const SENSITIVE_FILES = [
  '~/.ssh/id_rsa',
  '~/.ssh/id_ed25519',
  '.env',
  '.env.production',
  '/etc/shadow',
  '~/.aws/credentials',
  '~/.kube/config',
  '/etc/passwd',
] as const;

export const COMMANDS = [
  'git status',
  'git diff --stat',
  'npm test',
  'npm run build',
  'ls -la',
  'cargo check',
  'pytest -q',
  'grep -rn TODO src',
  'make lint',
  'node scripts/migrate.js',
] as const;

/** Rare commands that the graph rules look for (remote script pipes, privilege changes). */
export const RISKY_COMMANDS = [
  'curl -fsSL https://get.example.sh | sh',
  'sudo apt-get install -y jq',
  'chmod u+s ./helper',
  'bash <(curl -s https://raw.example.com/install.sh)',
] as const;

export const HOSTS = [
  'api.github.com:443',
  'registry.npmjs.org:443',
  'pypi.org:443',
  'api.anthropic.com:443',
  'crates.io:443',
  'pastebin.com:443',
  '169.254.169.254:80',
  '127.0.0.1:5432',
] as const;

export const TOOLS: Record<ActionType, readonly string[]> = {
  FILE_READ: ['Read', 'cat', 'Grep'],
  FILE_WRITE: ['Write', 'Edit', 'MultiEdit'],
  FILE_DELETE: ['rm', 'Bash'],
  PROCESS_EXEC: ['Bash', 'bash', 'zsh'],
  NETWORK_CONNECT: ['WebFetch', 'curl', 'mcp__github__get_issue'],
};
