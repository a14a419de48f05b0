import { ConfigError } from '@agentwatch/config';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CustomTransportStrategy } from '@nestjs/microservices';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { DestinationStream } from 'pino';
import { useBindWithoutDeprecatedProperty } from './async-resource-bind';
import { ServerConfig } from './config/fragments';
import { ErrorShape } from './error-body.filter';
import { HealthController, READINESS_CHECKS, ReadinessCheck } from './health.controller';
import { apiDocumentOf, createHttpApp, listen } from './http-app';
import { loggerModule, logRequests } from './logging';
import { MetricsController } from './metrics.controller';

/** What makes one app: its module, its API document, and the consumers it runs (if any). */
export interface AppDefinition<C extends ServerConfig> {
  /** Short name: the logger context and the prefix of a configuration error. */
  name: string;
  title: string;
  description: string;
  module(config: C): DynamicModule;
  /** What /ready probes: providers the module's imports export (KafkaHealth, PostgresHealth, …). */
  readiness: Type<ReadinessCheck>[];
  errorShape?: ErrorShape;
  /** Runs before the modules initialize (body parsers and other HTTP-layer setup). */
  configureHttp?(app: NestFastifyApplication): void;
  /** The Kafka consumers, started after every module initialized (their topics are created by init hooks). */
  consumers?(app: NestFastifyApplication): CustomTransportStrategy;
  /** Whether the consumers share the HTTP app's filters (the projectors rely on their rethrowing). */
  consumersInheritAppConfig?: boolean;
}

export interface BootOptions {
  /** Where the JSON log lines go (stdout unless given): tests capture them here. */
  logDestination?: DestinationStream;
}

export interface RunningApp {
  app: NestFastifyApplication;
  url: string;
}

/**
 * The one start order of every app: AsyncResource#bind as current Node has it → logger → Nest app →
 * /health, /ready and /metrics → consumers → listen. Stopping is Nest's (enableShutdownHooks on
 * SIGTERM/SIGINT, or app.close()): the HTTP server and the consumers close first, then the Postgres
 * pool and the Kafka producer (their shutdown hooks).
 */
export async function bootApp<C extends ServerConfig>(
  definition: AppDefinition<C>,
  config: C,
  options: BootOptions = {},
): Promise<RunningApp> {
  useBindWithoutDeprecatedProperty();
  const app = await createHttpApp(rootModule(definition, config, options), {
    title: definition.title,
    description: definition.description,
    errorShape: definition.errorShape,
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  logRequests(app.getHttpAdapter().getInstance());
  definition.configureHttp?.(app);
  await app.init();
  if (definition.consumers) {
    app.connectMicroservice(
      { strategy: definition.consumers(app) },
      { inheritAppConfig: definition.consumersInheritAppConfig ?? false },
    );
    await app.startAllMicroservices();
  }
  const url = await listen(app, config.port, config.host);
  return { app, url };
}

/**
 * An app's API document without starting it: Nest's preview mode reads the controllers' metadata and
 * instantiates no provider, so nothing connects to Postgres or Kafka (scripts/openapi.mjs).
 */
export async function previewApiDocument<C extends ServerConfig>(definition: AppDefinition<C>, config: C) {
  const app = await NestFactory.create<NestFastifyApplication>(rootModule(definition, config), new FastifyAdapter(), {
    preview: true,
    logger: false,
  });
  const document = apiDocumentOf(app, definition);
  await app.close();
  return document;
}

function rootModule<C extends ServerConfig>(
  definition: AppDefinition<C>,
  config: C,
  options: BootOptions = {},
): DynamicModule {
  const appModule = definition.module(config);
  return {
    ...appModule,
    imports: [
      loggerModule({ level: config.logLevel, destination: options.logDestination }),
      ...(appModule.imports ?? []),
    ],
    controllers: [...(appModule.controllers ?? []), HealthController, MetricsController],
    providers: [
      ...(appModule.providers ?? []),
      { provide: READINESS_CHECKS, useFactory: (...checks: ReadinessCheck[]) => checks, inject: definition.readiness },
    ],
  };
}

/**
 * An app's entry point: a configuration error ends the process with exit code 1 and one line per
 * offending variable on stderr, before anything connects anywhere.
 */
export function runApp<C extends ServerConfig>(
  definition: AppDefinition<C>,
  configFromEnv: (env: NodeJS.ProcessEnv) => C,
): void {
  let config: C;
  try {
    config = configFromEnv(process.env);
  } catch (error) {
    process.stderr.write(`${definition.name}: ${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exit(1);
  }
  bootApp(definition, config)
    .then(({ app, url }) => app.get(Logger).log(`listening on ${url}`, definition.name))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
