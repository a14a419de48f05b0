import { createHttpApp, listen, MAX_BODY_BYTES } from '@agentwatch/http';
import { projectionTransport } from '@agentwatch/kafka';
import { CONTROL_PLANE_PROJECTIONS, operatorErrorBody, registerStrictJsonParser } from '@agentwatch/tenancy';
import { Logger } from '@nestjs/common';
import { ControlPlaneConfig, controlPlaneConfigFromEnv } from './config';
import { ControlPlaneModule } from './control-plane.module';

export async function startControlPlane(config: ControlPlaneConfig) {
  const app = await createHttpApp(ControlPlaneModule.forRoot(config), {
    title: 'agentwatch control plane',
    description: 'Operator API: tenant lifecycle flows with four-eyes approval (shared/spec/002).',
    errorShape: operatorErrorBody,
  });
  registerStrictJsonParser(app.getHttpAdapter().getInstance(), MAX_BODY_BYTES);
  await app.init();
  // No HTTP filter applies to the consumer: a failing batch's error reaches the runner, which rolls
  // the batch's transaction back and retries it.
  app.connectMicroservice({
    strategy: projectionTransport(app, { app: 'control-plane' }, CONTROL_PLANE_PROJECTIONS),
  });
  await app.startAllMicroservices();
  const url = await listen(app, config.port);
  return { app, url };
}

if (require.main === module) {
  startControlPlane(controlPlaneConfigFromEnv())
    .then(({ url }) => new Logger('control-plane').log(`listening on ${url}`))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
