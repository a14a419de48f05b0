import { AuthModule } from '@agentwatch/auth';
import { CellsModule } from '@agentwatch/cells';
import { DatabaseModule } from '@agentwatch/db';
import { IdentityApiModule } from '@agentwatch/identity';
import { IngestApiModule } from '@agentwatch/ingest';
import { KafkaModule } from '@agentwatch/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { CloudApiConfig } from './config';

@Module({})
export class CloudApiModule {
  static forRoot(config: CloudApiConfig): DynamicModule {
    return {
      module: CloudApiModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.database.appUrl,
          applicationName: 'agentwatch-cloud-api',
          requireRowLevelSecurity: true,
          poolSize: 20,
        }),
        KafkaModule.forRoot(config.kafka),
        // Organizations' data follows their route; identity (credentials, memberships) stays shared.
        CellsModule.forRoot(config.cells),
        AuthModule.forRoot(config.auth),
        IdentityApiModule,
        IngestApiModule.forRoot({ rateLimit: config.rateLimit }),
      ],
    };
  }
}
