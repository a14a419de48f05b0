import { serveConsole, WebBuildHealth } from '@agentwatch/console-server';
import { registerFormBodyParser } from '@agentwatch/dev-oidc';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { OperatorConsoleConfig, operatorConsoleConfigFromEnv } from './config';
import { OperatorConsoleModule } from './operator-console.module';

export const operatorConsole: AppDefinition<OperatorConsoleConfig> = {
  name: 'operator-console',
  title: 'agentwatch operator console',
  description:
    'Serves the operator console (a React SPA) with its settings, a same-origin proxy to the control plane ' +
    '(/api/control-plane, event streams included) and, locally, a development identity provider (/oidc).',
  module: (config) => OperatorConsoleModule.forRoot(config),
  readiness: [WebBuildHealth],
  configureHttp: (app) => {
    registerFormBodyParser(app.getHttpAdapter().getInstance());
    serveConsole(app);
  },
};

export const startOperatorConsole = (config: OperatorConsoleConfig, options?: BootOptions) =>
  bootApp(operatorConsole, config, options);

if (require.main === module) runApp(operatorConsole, operatorConsoleConfigFromEnv);
