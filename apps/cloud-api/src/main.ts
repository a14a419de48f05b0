import { createHttpApp, listen } from '@agentwatch/http';
import { Logger } from '@nestjs/common';
import { CloudApiModule } from './cloud-api.module';
import { CloudApiConfig, cloudApiConfigFromEnv } from './config';

export async function startCloudApi(config: CloudApiConfig) {
  const app = await createHttpApp(CloudApiModule.forRoot(config), {
    title: 'agentwatch cloud API',
    description: 'Daemon ingest and queries over sessions, events and agents (shared/spec/000).',
  });
  const url = await listen(app, config.port);
  return { app, url };
}

if (require.main === module) {
  startCloudApi(cloudApiConfigFromEnv())
    .then(({ url }) => new Logger('cloud-api').log(`listening on ${url}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
