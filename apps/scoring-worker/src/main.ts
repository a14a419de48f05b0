import { PostgresHealth } from '@agentwatch/db';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { KafkaHealth, ProjectionRouting, projectionTransport } from '@agentwatch/kafka';
import { SCORING_WORKER_PROJECTIONS } from '@agentwatch/scoring';
import { ScoringWorkerConfig, scoringWorkerConfigFromEnv } from './config';
import { ScoringWorkerAppModule } from './scoring-worker.module';

export const scoringWorker: AppDefinition<ScoringWorkerConfig> = {
  name: 'scoring-worker',
  title: 'agentwatch scoring worker',
  description:
    'Scores ingest.events.v1 into score projections and scoring.scores.v1. Health, readiness and metrics only.',
  module: (config) => ScoringWorkerAppModule.forRoot(config),
  readiness: [KafkaHealth, PostgresHealth],
  consumers: (app) =>
    projectionTransport(app, { app: 'scoring-worker', ...ProjectionRouting.of(app) }, SCORING_WORKER_PROJECTIONS),
  consumersInheritAppConfig: true,
};

export const startScoringWorker = (config: ScoringWorkerConfig, options?: BootOptions) =>
  bootApp(scoringWorker, config, options);

if (require.main === module) runApp(scoringWorker, scoringWorkerConfigFromEnv);
