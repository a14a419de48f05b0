import { createHttpApp, listen } from '@agentwatch/http';
import { projectionTransport } from '@agentwatch/kafka';
import { SCORING_WORKER_PROJECTIONS } from '@agentwatch/scoring';
import { Logger } from '@nestjs/common';
import { ScoringWorkerConfig, scoringWorkerConfigFromEnv } from './config';
import { ScoringWorkerAppModule } from './scoring-worker.module';

export async function startScoringWorker(config: ScoringWorkerConfig) {
  const app = await createHttpApp(ScoringWorkerAppModule.forRoot(config), {
    title: 'agentwatch scoring worker',
    description: 'Scores ingest.events.v1 into score projections and scoring.scores.v1. Health and readiness only.',
  });
  await app.init();
  app.connectMicroservice(
    { strategy: projectionTransport(app, { app: 'scoring-worker' }, SCORING_WORKER_PROJECTIONS) },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
  const url = await listen(app, config.port);
  return { app, url };
}

if (require.main === module) {
  startScoringWorker(scoringWorkerConfigFromEnv())
    .then(({ url }) => new Logger('scoring-worker').log(`scoring; health on ${url}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
