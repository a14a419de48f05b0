import { CellsModule, CellsRecordRouter, CellsSettings } from '@agentwatch/cells';
import { DatabaseConfig, DatabaseModule } from '@agentwatch/db';
import { IngestProjectionsModule } from '@agentwatch/ingest';
import { KafkaModule, KafkaSettings, ProjectionRouting, RecordRouter } from '@agentwatch/kafka';
import { TenancyProjectionsModule } from '@agentwatch/tenancy';
import { DynamicModule, Module } from '@nestjs/common';

/** Where the read models live and where their topics are: what the projector and a rebuild both need. */
export interface ProjectionStoreSettings {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  /** The tenant databases' pools; default: the projector role, DATABASE_ROLE_PASSWORD, 4 connections each. */
  cells?: CellsSettings;
}

/** Connections per tenant database when the settings name none. */
export const DEFAULT_TENANT_POOL_SIZE = 4;

export const cellsSettingsOf = (config: ProjectionStoreSettings, applicationName: string): CellsSettings =>
  config.cells ?? {
    role: 'projector',
    rolePassword: config.database.rolePassword,
    poolSize: DEFAULT_TENANT_POOL_SIZE,
    applicationName,
  };

/**
 * Every projection handler over the projector's pool: the projector app serves it, and a rebuild
 * (`agentwatch replay`) boots it again against a fresh schema. Records of a provisioned tenant are
 * written into its own database (the RecordRouter from the route directory).
 */
@Module({})
export class ProjectorModule {
  static forRoot(config: ProjectionStoreSettings): DynamicModule {
    return {
      module: ProjectorModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.database.projectorUrl,
          applicationName: 'agentwatch-projector',
          poolSize: 8,
        }),
        KafkaModule.forRoot(config.kafka),
        CellsModule.forRoot(cellsSettingsOf(config, 'agentwatch-projector')),
        IngestProjectionsModule,
        TenancyProjectionsModule,
      ],
      providers: [{ provide: RecordRouter, useClass: CellsRecordRouter }, ProjectionRouting],
    };
  }
}
