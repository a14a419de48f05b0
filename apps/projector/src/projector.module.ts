import { DatabaseModule } from '@agentwatch/db';
import { IngestProjectionsModule } from '@agentwatch/ingest';
import { KafkaModule } from '@agentwatch/kafka';
import { ScoringProjectionsModule } from '@agentwatch/scoring';
import { TenancyProjectionsModule } from '@agentwatch/tenancy';
import { DynamicModule, Module } from '@nestjs/common';
import { ProjectorConfig } from './config';

@Module({})
export class ProjectorModule {
  static forRoot(config: ProjectorConfig): DynamicModule {
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
