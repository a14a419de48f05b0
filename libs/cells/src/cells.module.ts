import { PayloadOpener, PayloadSealer } from '@agentwatch/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { DataKeys } from './data-keys';
import { AesGcmPayloadOpener, AesGcmPayloadSealer } from './payload-sealing';
import { RouteDirectory } from './route-directory';
import { TenantData } from './tenant-data';
import { CellsSettings, TenantDatabases } from './tenant-databases';

/**
 * The data plane's view of cells: the route directory, the tenant databases' pools, the routed
 * organization scope, and the tenants' data keys that seal their records on the topics. Needs the
 * app's KafkaModule (the routes topic) and DatabaseModule (the shared database).
 */
@Module({})
export class CellsModule {
  static forRoot(settings: CellsSettings): DynamicModule {
    return {
      module: CellsModule,
      global: true,
      providers: [
        { provide: CellsSettings, useValue: settings },
        RouteDirectory,
        TenantDatabases,
        TenantData,
        DataKeys,
        // The app's EventPublisher seals through this; consumers open through the opener.
        { provide: PayloadSealer, useClass: AesGcmPayloadSealer },
        { provide: PayloadOpener, useClass: AesGcmPayloadOpener },
      ],
      exports: [RouteDirectory, TenantDatabases, TenantData, DataKeys, PayloadSealer, PayloadOpener],
    };
  }
}
