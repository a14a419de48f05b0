import { POOL_IDLE_TIMEOUT_MS, ROLE_NAMES } from '@agentwatch/db';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RouteDirectory } from './route-directory';

// An abstract class so that it doubles as the Nest injection token.
export abstract class CellsSettings {
  /** The product role this process logs in as on every cell: the APIs' or the projector's. */
  abstract role: 'app' | 'projector';
  /** DATABASE_ROLE_PASSWORD: the product roles have one password on every cell. */
  abstract rolePassword: string | null;
  /** Connections per tenant database. */
  abstract poolSize: number;
  abstract applicationName: string;
}

export interface TenantDatabase {
  server: string;
  database: string;
}

const keyOf = ({ server, database }: TenantDatabase) => `${server}/${database}`;

/**
 * One connection pool per tenant database this process has written or read, opened on first use
 * with the process's own role and closed when the tenant is deprovisioned (its database is about to
 * be dropped, and a pool holding connections would only delay that).
 */
@Injectable()
export class TenantDatabases implements OnApplicationShutdown {
  private readonly logger = new Logger('tenant-databases');
  private readonly pools = new Map<string, Promise<DataSource>>();

  constructor(
    private readonly settings: CellsSettings,
    directory: RouteDirectory,
  ) {
    directory.onChange((route) => {
      if (route.state === 'deprovisioned') void this.close({ server: route.server, database: route.database });
    });
  }

  dataSourceFor(target: TenantDatabase): Promise<DataSource> {
    const key = keyOf(target);
    let pool = this.pools.get(key);
    if (!pool) {
      pool = this.open(target);
      this.pools.set(key, pool);
      // A failed open is not remembered: the next batch or request tries again.
      pool.catch(() => this.pools.delete(key));
    }
    return pool;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((key) => this.closeKey(key)));
  }

  private open({ server, database }: TenantDatabase): Promise<DataSource> {
    const url = new URL(`postgres://${server}/${encodeURIComponent(database)}`);
    url.username = ROLE_NAMES[this.settings.role];
    url.password = this.settings.rolePassword ?? '';
    return new DataSource({
      type: 'postgres',
      url: url.toString(),
      synchronize: false,
      migrationsRun: false,
      applicationName: this.settings.applicationName,
      extra: { max: this.settings.poolSize, idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS },
    }).initialize();
  }

  private close(target: TenantDatabase): Promise<void> {
    return this.closeKey(keyOf(target));
  }

  private async closeKey(key: string): Promise<void> {
    const pool = this.pools.get(key);
    this.pools.delete(key);
    const dataSource = await pool?.catch(() => null);
    if (dataSource?.isInitialized) {
      await dataSource.destroy().catch((error) => this.logger.warn(`closing ${key}: ${(error as Error).message}`));
    }
  }
}
