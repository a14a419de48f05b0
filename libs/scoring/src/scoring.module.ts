import { ApiKeyGuard, ApiKeyVerifier } from '@agentwatch/auth';
import { eventRecordedV1, TOPICS } from '@agentwatch/contracts';
import { ProjectionDefinition } from '@agentwatch/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HealthDetailedController } from './http/health-detailed.controller';
import { PoliciesController } from './http/policies.controller';
import { ScoresController } from './http/scores.controller';
import { LlmScorer, LlmSettings } from './llm/llm-scorer';
import { CreatePolicyHandler } from './policies/create-policy';
import { GetPolicyHandler } from './policies/get-policy';
import { ListPolicyVersionsHandler } from './policies/list-policy-versions';
import { ReplacePolicyHandler } from './policies/replace-policy';
import { ValidatePolicyHandler } from './policies/validate-policy';
import { GetJustificationHandler } from './scores/get-justification';
import { GetScoreHandler } from './scores/get-score';
import { ListScoresHandler } from './scores/list-scores';
import { ScoreEventsProjection } from './worker/score-events.projection';

/** The scoring API: policies, score reads, justification, detailed health. */
@Module({})
export class ScoringApiModule {
  static forRoot(llm: LlmSettings): DynamicModule {
    return {
      module: ScoringApiModule,
      imports: [CqrsModule],
      controllers: [PoliciesController, ScoresController, HealthDetailedController],
      providers: [
        { provide: LlmSettings, useValue: llm },
        LlmScorer,
        CreatePolicyHandler,
        ReplacePolicyHandler,
        GetPolicyHandler,
        ListPolicyVersionsHandler,
        ValidatePolicyHandler,
        GetScoreHandler,
        ListScoresHandler,
        GetJustificationHandler,
        ApiKeyVerifier,
        ApiKeyGuard,
      ],
    };
  }
}

/** The scoring worker: scores `ingest.events.v1` into `event_scores` and `scoring.scores.v1`. */
@Module({})
export class ScoringWorkerModule {
  static forRoot(llm: LlmSettings): DynamicModule {
    return {
      module: ScoringWorkerModule,
      controllers: [ScoreEventsProjection],
      providers: [{ provide: LlmSettings, useValue: llm }, LlmScorer],
    };
  }
}

export const SCORING_WORKER_PROJECTIONS: ProjectionDefinition[] = [
  {
    name: 'scores',
    topics: { [TOPICS.ingestEvents.name]: eventRecordedV1 },
    // event_hourly_risk counts the scores (a trigger on event_scores): rebuilt with them.
    tables: ['event_scores', 'score_verdicts', 'scoring_graph_nodes', 'event_hourly_risk'],
    // Scoring one event holds far more memory than projecting it (graph context, components, the
    // published score): smaller batches keep the worker inside its 512 MB budget on a backlog.
    fetchBytesPerPartition: 1024 * 1024,
    // A batch waits on Postgres and on the broker's ack of its scores more than it computes: more
    // partitions in flight keep the CPU busy.
    concurrency: 8,
    // Scores are derived from the topic: a batch lost in a database crash is scored again.
    derivedOnly: true,
  },
];
