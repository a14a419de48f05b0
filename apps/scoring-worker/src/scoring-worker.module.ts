import { DatabaseModule } from '@agentwatch/db';
import { KafkaModule } from '@agentwatch/kafka';
import { ScoringWorkerModule } from '@agentwatch/scoring';
import { DynamicModule, Module } from '@nestjs/common';
import { ScoringWorkerConfig } from './config';

@Module({})
export class ScoringWorkerAppModule {
  static forRoot(config: ScoringWorkerConfig): DynamicModule {
    return {
      module: ScoringWorkerAppModule,
      imports: [
        // The projector role: the worker writes every organization's score rows, like a projector.
        DatabaseModule.forRoot({
          url: config.database.projectorUrl,
          applicationName: 'agentwatch-scoring-worker',
          poolSize: 8,
        }),
        KafkaModule.forRoot(config.kafka),
        ScoringWorkerModule.forRoot(config.llm),
      ],
    };
  }
}
