import { ensureRoles, grantPrivileges, PRODUCT_MIGRATIONS, ROLE_NAMES } from '@agentwatch/db';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Cell } from '../domain/policy';

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A role's login on a cell: the product roles share one password (DATABASE_ROLE_PASSWORD) on every cell. */
interface RoleLogin {
  user: string;
  password: string | null;
}

function urlOf(cell: Cell, database: string, role?: RoleLogin): string {
  const url = new URL(cell.admin_url);
  url.pathname = `/${encodeURIComponent(database)}`;
  if (role) {
    url.username = role.user;
    url.password = role.password ?? '';
  }
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(cell: Cell, database: string): Promise<boolean> {
  return withClient(urlOf(cell, 'postgres'), async (c) => {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    return (rowCount ?? 0) > 0;
  });
}

/** What a route names as the cell's server: host and port of its admin URL, never its credentials. */
export function serverOf(cell: Cell): string {
  const url = new URL(cell.admin_url);
  return `${url.hostname}:${url.port || '5432'}`;
}

/**
 * Creates the tenant's database on its cell unless it exists, first creating the product roles on
 * that server (a cell is a server of its own: its roles are not the shared server's), then applies
 * the product schema migrations (those already applied are skipped), so running it again after a
 * crash creates nothing twice. Migrations run as the owner role, with the deployment's role
 * password. Returns the schema version: the newest migration the database records.
 */
export async function createAndMigrate(
  cell: Cell,
  database: string,
  rolePassword: string | null,
  afterCreate?: () => void,
): Promise<string> {
  await withClient(urlOf(cell, 'postgres'), (c) => ensureRoles(c, rolePassword));
  if (!(await databaseExists(cell, database))) {
    await withClient(urlOf(cell, 'postgres'), async (c) => {
      try {
        await c.query(`CREATE DATABASE ${quoteIdent(database)} OWNER ${ROLE_NAMES.owner}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    });
  }
  afterCreate?.();
  await withClient(urlOf(cell, database), (c) =>
    c.query(`ALTER SCHEMA public OWNER TO ${ROLE_NAMES.owner}; REVOKE CREATE ON SCHEMA public FROM PUBLIC`),
  );
  return migrateTenantDatabase(cell, database, rolePassword);
}

/**
 * Applies the product migrations a tenant database lacks (none: nothing happens) and its grants, as
 * the owner role; returns its schema version: the newest migration the database records.
 */
export async function migrateTenantDatabase(cell: Cell, database: string, rolePassword: string | null) {
  const dataSource = await new DataSource({
    type: 'postgres',
    url: urlOf(cell, database, { user: ROLE_NAMES.owner, password: rolePassword }),
    // A tenant database holds the product schema only: the control plane's tables live in the shared one.
    migrations: PRODUCT_MIGRATIONS,
    migrationsTransactionMode: 'each',
  }).initialize();
  try {
    await dataSource.runMigrations();
    // The very grants of the shared database's product tables (the API writes its policies there too).
    await grantPrivileges(dataSource);
    const [row] = await dataSource.query('SELECT max("timestamp")::text AS version FROM migrations');
    if (!row?.version) throw new Error(`database ${database} records no migration`);
    return row.version as string;
  } finally {
    await dataSource.destroy();
  }
}

/** Drops the tenant database if it exists (compensation and deprovision); dropping twice is harmless. */
export async function dropDatabase(cell: Cell, database: string): Promise<boolean> {
  if (!database.startsWith('tenant_')) throw new Error(`refusing to drop ${database}: not a tenant database`);
  return withClient(urlOf(cell, 'postgres'), async (c) => {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if ((rowCount ?? 0) === 0) return false;
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
    return true;
  });
}
