import { serveConsole, WebBuildHealth } from '@agentwatch/console-server';
import { registerFormBodyParser } from '@agentwatch/dev-oidc';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { ProductConsoleConfig, productConsoleConfigFromEnv } from './config';
import { ProductConsoleModule } from './product-console.module';

export const productConsole: AppDefinition<ProductConsoleConfig> = {
  name: 'product-console',
  title: 'agentwatch product console',
  description:
    'Serves the product console (a React SPA) with its settings, a same-origin proxy to the cloud API ' +
    '(/api/cloud) and the scoring API (/api/scoring), and, locally, a development identity provider (/oidc).',
  module: (config) => ProductConsoleModule.forRoot(config),
  readiness: [WebBuildHealth],
  configureHttp: (app) => {
    registerFormBodyParser(app.getHttpAdapter().getInstance());
    serveConsole(app);
  },
};

export const startProductConsole = (config: ProductConsoleConfig, options?: BootOptions) =>
  bootApp(productConsole, config, options);

if (require.main === module) runApp(productConsole, productConsoleConfigFromEnv);
