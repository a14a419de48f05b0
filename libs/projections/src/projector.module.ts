import { DatabaseConfig, DatabaseModule } from '@agentwatch/db';
import { IngestProjectionsModule } from '@agentwatch/ingest';
import { KafkaModule, KafkaSettings } from '@agentwatch/kafka';
import { ScoringProjectionsModule } from '@agentwatch/scoring';
import { TenancyProjectionsModule } from '@agentwatch/tenancy';
import { DynamicModule, Module } from '@nestjs/common';

/** Where the read models live and where their topics are: what the projector and a rebuild both need. */
export interface ProjectionStoreSettings {
  database: DatabaseConfig;
  kafka: KafkaSettings;
}

/**
 * Every projection handler over the projector's pool: the projector app serves it, and a rebuild
 * (`agentwatch replay`) boots it again against a fresh schema.
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
        IngestProjectionsModule,
        ScoringProjectionsModule,
        TenancyProjectionsModule,
      ],
    };
  }
}
