import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { inScopedTransaction, Queryable } from './scoped-transaction';

/** Rows of an UPDATE … RETURNING: TypeORM answers `[rows, affected]` for UPDATE and DELETE. */
export async function updateReturning<T>(q: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const [rows] = (await q.query(sql, params)) as [T[], number];
  return rows;
}

/**
 * Runs work as one organization: a transaction whose `app.org_id` setting is what the row-level
 * security policies compare against. Outside such a transaction the API role sees no tenant rows.
 */
@Injectable()
export class OrgScope {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(orgId: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return this.withSetting('app.org_id', orgId, work);
  }

  /** Reads the single credential row whose hash is presented, before any organization is known. */
  lookupByTokenHash<T>(tokenHash: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return this.withSetting('app.token_hash', tokenHash, work);
  }

  /** Reads a verified identity's own memberships, before any organization is chosen. */
  asSubject<T>(subject: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return this.withSetting('app.subject', subject, work);
  }

  private withSetting<T>(name: string, value: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return inScopedTransaction(this.dataSource, { [name]: value }, work);
  }
}

/** Refuses to serve from a role that could read across organizations (docs/architecture.md). */
export async function assertRowLevelSecurityApplies(dataSource: DataSource): Promise<void> {
  const [role] = await dataSource.query(
    `SELECT r.rolname, r.rolsuper, r.rolbypassrls,
            (SELECT count(*)::int FROM pg_tables t WHERE t.schemaname = 'public' AND t.tableowner = r.rolname) AS owned
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  if (role.rolsuper || role.rolbypassrls || role.owned > 0) {
    throw new Error(
      `database role "${role.rolname}" can bypass row-level security (superuser, BYPASSRLS or table owner); ` +
        'the API must connect with the application role (DATABASE_APP_URL)',
    );
  }
}
