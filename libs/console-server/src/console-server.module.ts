import { DynamicModule, Module } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { registerApiProxy } from './api-proxy';
import { ConsoleServerOptions } from './console-server.options';
import { ConsoleSettingsController } from './console-settings.controller';
import { registerStaticSite } from './static-site';
import { WebBuildHealth } from './web-build.health';

/** A console's server: GET /config.json and the readiness of its build, as Nest parts. */
@Module({})
export class ConsoleServerModule {
  static forRoot(options: ConsoleServerOptions): DynamicModule {
    return {
      module: ConsoleServerModule,
      controllers: [ConsoleSettingsController],
      providers: [{ provide: ConsoleServerOptions, useValue: options }, WebBuildHealth],
      exports: [WebBuildHealth],
    };
  }
}

/** The HTTP-level parts (AppDefinition.configureHttp): the API proxy and the SPA's files with their fallback. */
export function serveConsole(app: NestFastifyApplication): void {
  const options = app.get(ConsoleServerOptions);
  const fastify = app.getHttpAdapter().getInstance();
  registerApiProxy(fastify, options.upstreams);
  registerStaticSite(fastify, options);
}
