import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DatabaseConfig, databaseConfigFromEnv, ROLE_NAMES } from './database.config';
import {
  API_DELETABLE_TABLES,
  API_WRITABLE_TABLES,
  CONTROL_PLANE_ERASES,
  CONTROL_PLANE_JOURNAL,
  CONTROL_PLANE_SECRETS,
  CONTROL_PLANE_TABLES,
  MIGRATIONS,
  PRODUCT_MIGRATIONS,
} from './migrations';

/**
 * Which schema a database holds: `shared` is the one database the apps and the control plane run on
 * (product and control-plane migrations); `product` is a tenant database, the product schema alone.
 */
export type DatabaseSchema = 'shared' | 'product';

const MIGRATIONS_OF: Record<DatabaseSchema, typeof MIGRATIONS> = { shared: MIGRATIONS, product: PRODUCT_MIGRATIONS };

const DUPLICATE_OBJECT = '42710';
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs a CREATE that another process may be running at the same moment; "already exists" is success. */
async function createIfMissing(client: Pick<Client, 'query'>, sql: string): Promise<void> {
  try {
    await client.query(sql);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== DUPLICATE_OBJECT && code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
  }
}

const quoteLiteral = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Creates the product roles on a server (or aligns their options and password), connected as a
 * superuser to its `postgres` database: every server of a deployment, the shared one and each
 * cell's, has the same roles.
 *
 * Roles belong to the server, not to a database, and two sessions altering one role at the same
 * moment make Postgres refuse one of them ("tuple concurrently updated"): parallel test workers
 * setting up their databases did. Every caller takes one advisory lock in `postgres` first, so they
 * take turns, and under it a role found missing can be created without racing another creator.
 */
export async function ensureRoles(client: Pick<Client, 'query'>, password: string | null): Promise<void> {
  const pw = password === null ? '' : ` PASSWORD ${quoteLiteral(password)}`;
  const roles = [
    [ROLE_NAMES.owner, 'LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE'],
    [ROLE_NAMES.app, 'LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT'],
    [ROLE_NAMES.projector, 'LOGIN NOSUPERUSER BYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT'],
    [ROLE_NAMES.control, 'LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT'],
  ] as const;
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('agentwatch roles'))`);
    for (const [role, options] of roles) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      await client.query(`${rowCount === 0 ? 'CREATE' : 'ALTER'} ROLE ${role} ${options}${pw}`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function ensureDatabase(client: Client, database: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (rowCount === 0) await createIfMissing(client, `CREATE DATABASE ${database} OWNER ${ROLE_NAMES.owner}`);
}

export function ownerDataSource(config: DatabaseConfig, schema: DatabaseSchema = 'shared'): DataSource {
  return new DataSource({
    type: 'postgres',
    url: config.ownerUrl,
    migrations: MIGRATIONS_OF[schema],
    migrationsTransactionMode: 'each',
  });
}

async function migrate(config: DatabaseConfig, schema: DatabaseSchema): Promise<string[]> {
  const dataSource = await ownerDataSource(config, schema).initialize();
  try {
    const applied = await dataSource.runMigrations();
    await grantPrivileges(dataSource);
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Grants are reapplied on every set-up (and after a rebuild), so no table is ever left ungranted. The
 * control plane's grants apply where its tables exist: a product-only database has none.
 */
export async function grantPrivileges(q: { query: (sql: string) => Promise<unknown> }): Promise<void> {
  await q.query(`
      GRANT USAGE ON SCHEMA public TO ${ROLE_NAMES.app}, ${ROLE_NAMES.projector};
      GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${ROLE_NAMES.app};
      GRANT INSERT, UPDATE ON ${API_WRITABLE_TABLES.join(', ')} TO ${ROLE_NAMES.app};
      GRANT DELETE ON ${API_DELETABLE_TABLES.join(', ')} TO ${ROLE_NAMES.app};
      GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${ROLE_NAMES.projector};
      DO $grants$ DECLARE control_table text; BEGIN
        IF to_regclass('public.${CONTROL_PLANE_JOURNAL}') IS NOT NULL THEN
          GRANT USAGE ON SCHEMA public TO ${ROLE_NAMES.control};
          GRANT SELECT, INSERT ON ${CONTROL_PLANE_JOURNAL} TO ${ROLE_NAMES.control};
          GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${ROLE_NAMES.control};
          ${Object.entries(CONTROL_PLANE_ERASES)
            .map(([table, column]) => `GRANT SELECT (${column}), DELETE ON ${table} TO ${ROLE_NAMES.control};`)
            .join('\n          ')}
          -- Table by table: a database migrated only part of the way (a test's rollback) lacks the newer ones.
          FOREACH control_table IN ARRAY ARRAY[${CONTROL_PLANE_TABLES.map((t) => `'${t}'`).join(', ')}] LOOP
            IF to_regclass('public.' || control_table) IS NOT NULL THEN
              EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ${ROLE_NAMES.control}', control_table);
            END IF;
          END LOOP;
          FOREACH control_table IN ARRAY ARRAY[${CONTROL_PLANE_SECRETS.map((t) => `'${t}'`).join(', ')}] LOOP
            IF to_regclass('public.' || control_table) IS NOT NULL THEN
              EXECUTE format('REVOKE ALL ON %I FROM ${ROLE_NAMES.app}, ${ROLE_NAMES.projector}', control_table);
            END IF;
          END LOOP;
        END IF;
      END $grants$;
    `);
}

/**
 * Creates roles and the database when missing, then migrates it to `schema` (the shared database's
 * unless told). Safe to run again and concurrently; returns the names of the migrations it applied.
 */
export async function bootstrapDatabase(config: DatabaseConfig, schema: DatabaseSchema = 'shared'): Promise<string[]> {
  const serverUrl = new URL(config.adminUrl);
  serverUrl.pathname = '/postgres';
  await withClient(serverUrl.toString(), async (client) => {
    await ensureRoles(client, config.rolePassword);
    await ensureDatabase(client, config.database);
  });
  await withClient(config.adminUrl, (client) =>
    client.query(`ALTER SCHEMA public OWNER TO ${ROLE_NAMES.owner}; REVOKE CREATE ON SCHEMA public FROM PUBLIC`),
  );
  return migrate(config, schema);
}

/**
 * Planner statistics come from autovacuum's ANALYZE. A server with autovacuum off never has them, and
 * plans over large tables degrade (a score batch's UPDATE of 2,000 events by primary key became a
 * sequential scan of 10M rows). Turned on when off and the set-up role may; returns what it found.
 */
export async function ensureAutovacuum(adminUrl: string): Promise<'on' | 'turned-on' | 'off'> {
  return withClient(adminUrl, async (client) => {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    if (rows[0].autovacuum === 'on') return 'on';
    const { rows: role } = await client.query<{ rolsuper: boolean }>(
      'SELECT rolsuper FROM pg_roles WHERE rolname = current_user',
    );
    if (!role[0]?.rolsuper) return 'off';
    await client.query('ALTER SYSTEM SET autovacuum = on');
    await client.query('SELECT pg_reload_conf()');
    return 'turned-on';
  });
}

/** Drops a database (test runs clean up after themselves); refuses anything but a test database. */
export async function dropTestDatabase(adminUrl: string, database: string): Promise<void> {
  if (!database.startsWith('agentwatch_test_')) throw new Error(`refusing to drop ${database}`);
  const serverUrl = new URL(adminUrl);
  serverUrl.pathname = '/postgres';
  await withClient(serverUrl.toString(), (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
}

/**
 * A database beside the test run's own, `<run's database>_<suffix>`, for a test that migrates it up
 * and down: such a test must not change the schema the suites running beside it use.
 */
export function scratchDatabase(suffix: string): { config: DatabaseConfig; drop: () => Promise<void> } {
  const base = databaseConfigFromEnv();
  const url = new URL(base.adminUrl);
  url.pathname = `/${base.database}_${suffix}`.slice(0, 64);
  const config = databaseConfigFromEnv({ ...process.env, DATABASE_URL: url.toString() });
  return { config, drop: () => dropTestDatabase(base.adminUrl, config.database) };
}
