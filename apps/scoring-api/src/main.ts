import { PostgresHealth } from '@agentwatch/db';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { KafkaHealth } from '@agentwatch/kafka';
import { ScoringApiConfig, scoringApiConfigFromEnv } from './config';
import { ScoringApiAppModule } from './scoring-api.module';

export const scoringApi: AppDefinition<ScoringApiConfig> = {
  name: 'scoring-api',
  title: 'agentwatch risk scoring and policy API',
  description:
    'Per-customer policies, per-event score detail, score lists, justification reports, detailed health ' +
    '(shared/spec/001). Every route but GET /health/detailed takes `X-API-Key`.',
  module: (config) => ScoringApiAppModule.forRoot(config),
  readiness: [KafkaHealth, PostgresHealth],
};

export const startScoringApi = (config: ScoringApiConfig, options?: BootOptions) =>
  bootApp(scoringApi, config, options);

if (require.main === module) runApp(scoringApi, scoringApiConfigFromEnv);
