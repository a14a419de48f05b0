import { PostgresHealth } from '@agentwatch/db';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { KafkaHealth } from '@agentwatch/kafka';
import { CloudApiModule } from './cloud-api.module';
import { CloudApiConfig, cloudApiConfigFromEnv } from './config';

export const cloudApi: AppDefinition<CloudApiConfig> = {
  name: 'cloud-api',
  title: 'agentwatch cloud API',
  description: 'Daemon ingest and queries over sessions, events and agents (shared/spec/000).',
  module: (config) => CloudApiModule.forRoot(config),
  readiness: [KafkaHealth, PostgresHealth],
};

export const startCloudApi = (config: CloudApiConfig, options?: BootOptions) => bootApp(cloudApi, config, options);

if (require.main === module) runApp(cloudApi, cloudApiConfigFromEnv);
