import { createHttpApp, listen } from '@agentwatch/http';
import { projectionTransport } from '@agentwatch/kafka';
import { TENANCY_PROJECTIONS } from '@agentwatch/tenancy';
import { Logger } from '@nestjs/common';
import { ProjectorConfig, projectorConfigFromEnv } from './config';
import { PROJECTIONS } from './projections';
import { ProjectorModule } from './projector.module';

export async function startProjector(config: ProjectorConfig) {
  const app = await createHttpApp(ProjectorModule.forRoot(config), {
    title: 'agentwatch projector',
    description: 'Builds the read models from the ingest topics. Health and readiness only.',
  });
  // The app's error filter is inherited: it rethrows non-HTTP errors, so a failing batch reaches the
  // runner unchanged, is rolled back and retried.
  app.connectMicroservice(
    { strategy: projectionTransport(app, { app: 'projector' }, [...PROJECTIONS, ...TENANCY_PROJECTIONS]) },
    { inheritAppConfig: true },
  );
  // init before the consumers start: the topics they subscribe to are created by a module init hook.
  await app.init();
  await app.startAllMicroservices();
  const url = await listen(app, config.port);
  return { app, url };
}

if (require.main === module) {
  startProjector(projectorConfigFromEnv())
    .then(({ url }) => new Logger('projector').log(`projecting; health on ${url}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
