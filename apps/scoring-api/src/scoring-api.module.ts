import { CellsModule } from '@agentwatch/cells';
import { DatabaseModule } from '@agentwatch/db';
import { KafkaModule } from '@agentwatch/kafka';
import { ScoringApiModule } from '@agentwatch/scoring';
import { DynamicModule, Module } from '@nestjs/common';
import { ScoringApiConfig } from './config';

@Module({})
export class ScoringApiAppModule {
  static forRoot(config: ScoringApiConfig): DynamicModule {
    return {
      module: ScoringApiAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.database.appUrl,
          applicationName: 'agentwatch-scoring-api',
          requireRowLevelSecurity: true,
          poolSize: 10,
        }),
        KafkaModule.forRoot(config.kafka),
        // Policies and scores follow the organization's route; API keys stay in the shared database.
        CellsModule.forRoot(config.cells),
        ScoringApiModule.forRoot(config.llm),
      ],
    };
  }
}
