import { CellsModule, CellsRecordRouter } from '@agentwatch/cells';
import { DatabaseModule } from '@agentwatch/db';
import { KafkaModule, ProjectionRouting, RecordRouter } from '@agentwatch/kafka';
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
        // A provisioned tenant's scores, graph, policies and LLM cache live in its own database: the
        // batch's transaction is opened there, so everything the worker reads and writes through it follows.
        CellsModule.forRoot(config.cells),
        ScoringWorkerModule.forRoot(config.llm),
      ],
      providers: [{ provide: RecordRouter, useClass: CellsRecordRouter }, ProjectionRouting],
    };
  }
}
