import { createHttpApp, listen } from '@agentwatch/http';
import { Logger } from '@nestjs/common';
import { ScoringApiConfig, scoringApiConfigFromEnv } from './config';
import { ScoringApiAppModule } from './scoring-api.module';

export async function startScoringApi(config: ScoringApiConfig) {
  const app = await createHttpApp(ScoringApiAppModule.forRoot(config), {
    title: 'agentwatch risk scoring and policy API',
    description:
      'Per-customer policies, per-event score detail, score lists, justification reports, detailed health ' +
      '(shared/spec/001). Every route but GET /health/detailed takes `X-API-Key`.',
  });
  const url = await listen(app, config.port);
  return { app, url };
}

if (require.main === module) {
  startScoringApi(scoringApiConfigFromEnv())
    .then(({ url }) => new Logger('scoring-api').log(`listening on ${url}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
