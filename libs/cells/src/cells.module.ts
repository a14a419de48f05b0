import { DynamicModule, Module } from '@nestjs/common';
import { RouteDirectory } from './route-directory';
import { TenantData } from './tenant-data';
import { CellsSettings, TenantDatabases } from './tenant-databases';

/**
 * The data plane's view of cells: the route directory, the tenant databases' pools and the routed
 * organization scope. Needs the app's KafkaModule (the routes topic) and DatabaseModule (the shared
 * database).
 */
@Module({})
export class CellsModule {
  static forRoot(settings: CellsSettings): DynamicModule {
    return {
      module: CellsModule,
      global: true,
      providers: [{ provide: CellsSettings, useValue: settings }, RouteDirectory, TenantDatabases, TenantData],
      exports: [RouteDirectory, TenantDatabases, TenantData],
    };
  }
}
