import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { assertRowLevelSecurityApplies, OrgScope } from './org-scope';
import { PostgresHealth } from './postgres-health';

export interface DatabaseModuleOptions {
  url: string;
  poolSize?: number;
  applicationName: string;
  /** Serving tenant data: refuse to start unless row-level security binds this role. */
  requireRowLevelSecurity?: boolean;
}

/**
 * How long a pooled connection may sit idle before it is closed: pg-pool's 10 s, stated here because
 * the tenant pools use it too. Every app process keeps a pool per database it writes, so the
 * connections idle processes hold add up on each server against its `max_connections`. Kept for
 * 60 s, they left a replay started beside the idle live apps without connection slots on a server
 * with `max_connections = 100` and ten tenant databases (3 of 11 quick benches), for a gain in CPU
 * that no run had shown (docs/performance.md, "Below saturation").
 */
export const POOL_IDLE_TIMEOUT_MS = 10_000;

@Injectable()
class DataSourceLifecycle implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

@Injectable()
class RowLevelSecurityCheck implements OnApplicationBootstrap {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): Promise<void> {
    return assertRowLevelSecurityApplies(this.dataSource);
  }
}

/** One TypeORM DataSource per app, connected with that app's own role (schema changes are migrations only). */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          useFactory: () =>
            new DataSource({
              type: 'postgres',
              url: options.url,
              synchronize: false,
              migrationsRun: false,
              applicationName: options.applicationName,
              extra: { max: options.poolSize ?? 10, idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS },
            }).initialize(),
        },
        DataSourceLifecycle,
        OrgScope,
        PostgresHealth,
        ...(options.requireRowLevelSecurity ? [RowLevelSecurityCheck] : []),
      ],
      exports: [DataSource, OrgScope, PostgresHealth],
    };
  }
}
