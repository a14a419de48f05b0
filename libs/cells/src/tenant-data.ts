import { assertRowLevelSecurityApplies, inScopedTransaction, OrgScope, Queryable } from '@agentwatch/db';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UNAVAILABLE_MESSAGES, UnavailableReason } from './domain/placement';
import { RouteDirectory } from './route-directory';
import { CellsSettings, TenantDatabase, TenantDatabases } from './tenant-databases';

/** 503 `{"error": …}`: the organization's database cannot be reached now; nothing falls back to another. */
export class TenantUnavailable extends ServiceUnavailableException {
  constructor(readonly reason: UnavailableReason) {
    super({ error: UNAVAILABLE_MESSAGES[reason] });
  }
}

/**
 * Runs work as one organization in the database its route names: the shared database for a
 * self-service organization (through OrgScope), the tenant database on its cell for a provisioned
 * one. Either way the transaction's `app.org_id` is what row-level security compares against.
 */
@Injectable()
export class TenantData {
  private readonly checked = new WeakSet<DataSource>();

  constructor(
    private readonly shared: OrgScope,
    private readonly sharedSource: DataSource,
    private readonly directory: RouteDirectory,
    private readonly databases: TenantDatabases,
    private readonly settings: CellsSettings,
  ) {}

  async run<T>(orgId: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    const placement = await this.directory.placementOf(orgId);
    switch (placement.kind) {
      case 'shared':
        return this.shared.run(orgId, work);
      case 'unavailable':
        throw new TenantUnavailable(placement.reason);
      case 'tenant': {
        const dataSource = await this.tenantDataSource(placement);
        return inScopedTransaction(dataSource, { 'app.org_id': orgId }, work);
      }
    }
  }

  /**
   * The pool of the organization's database, for work that manages its own transaction (a list
   * streamed over several round trips). The caller sets `app.org_id` itself; unavailable → 503.
   */
  async dataSourceOf(orgId: string): Promise<DataSource> {
    const placement = await this.directory.placementOf(orgId);
    switch (placement.kind) {
      case 'shared':
        return this.sharedSource;
      case 'unavailable':
        throw new TenantUnavailable(placement.reason);
      case 'tenant':
        return this.tenantDataSource(placement);
    }
  }

  /** An API's pool is checked once, as the shared one is at start: its role must not bypass row-level security. */
  private async tenantDataSource(target: TenantDatabase): Promise<DataSource> {
    const dataSource = await this.databases.dataSourceFor(target);
    if (this.settings.role === 'app' && !this.checked.has(dataSource)) {
      await assertRowLevelSecurityApplies(dataSource);
      this.checked.add(dataSource);
    }
    return dataSource;
  }
}
