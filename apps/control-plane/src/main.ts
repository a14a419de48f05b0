import { PostgresHealth } from '@agentwatch/db';
import { AppDefinition, BootOptions, bootApp, MAX_BODY_BYTES, runApp } from '@agentwatch/http';
import { KafkaHealth, projectionTransport } from '@agentwatch/kafka';
import {
  CheckinsOpener,
  CONTROL_PLANE_PROJECTIONS,
  operatorErrorBody,
  registerStrictJsonParser,
} from '@agentwatch/tenancy';
import { ControlPlaneConfig, controlPlaneConfigFromEnv } from './config';
import { ControlPlaneModule } from './control-plane.module';

export const controlPlane: AppDefinition<ControlPlaneConfig> = {
  name: 'control-plane',
  title: 'agentwatch control plane',
  description: 'Operator API: tenant lifecycle flows with four-eyes approval (shared/spec/002).',
  module: (config) => ControlPlaneModule.forRoot(config),
  readiness: [KafkaHealth, PostgresHealth],
  errorShape: operatorErrorBody,
  configureHttp: (app) => registerStrictJsonParser(app.getHttpAdapter().getInstance(), MAX_BODY_BYTES),
  // No HTTP filter applies to the consumer: a failing batch's error reaches the runner, which rolls
  // the batch's transaction back and retries it. A provisioned tenant's check-ins are sealed.
  consumers: (app) =>
    projectionTransport(app, { app: 'control-plane', opener: app.get(CheckinsOpener) }, CONTROL_PLANE_PROJECTIONS),
};

export const startControlPlane = (config: ControlPlaneConfig, options?: BootOptions) =>
  bootApp(controlPlane, config, options);

if (require.main === module) runApp(controlPlane, controlPlaneConfigFromEnv);
