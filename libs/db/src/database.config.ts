// Three Postgres roles (docs/architecture.md): the owner runs migrations and owns the tables; the API role
// is neither owner, superuser nor BYPASSRLS, so row-level security always applies to it; the
// projector role writes every organization's read-model rows and is the only one that bypasses RLS.

export const ROLE_NAMES = {
  owner: 'agentwatch_owner',
  app: 'agentwatch_app',
  projector: 'agentwatch_projector',
  /** The control plane: its own tables only (journal append-only); never the product read models. */
  control: 'agentwatch_control',
} as const;

export interface DatabaseConfig {
  /** A superuser (or CREATEDB + CREATEROLE) connection: creates the database and roles. */
  adminUrl: string;
  ownerUrl: string;
  appUrl: string;
  projectorUrl: string;
  controlUrl: string;
  database: string;
  rolePassword: string | null;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/agentwatch';

function withUser(url: string, user: string, password: string | null): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password ?? '';
  return parsed.toString();
}

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const adminUrl = env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const rolePassword = env.DATABASE_ROLE_PASSWORD ?? null;
  const database = decodeURIComponent(new URL(adminUrl).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) {
    throw new Error(`DATABASE_URL names database "${database}": use lower-case letters, digits and _ only`);
  }
  return {
    adminUrl,
    database,
    rolePassword,
    ownerUrl: env.DATABASE_OWNER_URL ?? withUser(adminUrl, ROLE_NAMES.owner, rolePassword),
    appUrl: env.DATABASE_APP_URL ?? withUser(adminUrl, ROLE_NAMES.app, rolePassword),
    projectorUrl: env.DATABASE_PROJECTOR_URL ?? withUser(adminUrl, ROLE_NAMES.projector, rolePassword),
    controlUrl: env.DATABASE_CONTROL_URL ?? withUser(adminUrl, ROLE_NAMES.control, rolePassword),
  };
}
