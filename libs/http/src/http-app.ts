import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorBodyFilter, ErrorShape } from './error-body.filter';
import { registerJsonBodyParser } from './json-body.parser';
import { requestId } from './logging';
import { documentSharedAnswers, frameworkErrors, MAX_PATH_SEGMENT } from './shared-answers';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;

/** LOG_LEVEL=warn keeps fatal, error and warn; the default is log. */
export function logLevels(level = 'log'): (typeof LEVELS)[number][] {
  const index = LEVELS.indexOf(level as (typeof LEVELS)[number]);
  return LEVELS.slice(0, index < 0 ? 4 : index + 1);
}

export interface HttpAppOptions {
  title: string;
  description: string;
  logger?: false | (typeof LEVELS)[number][];
  /** Hold log lines until the app's own logger is installed (bootstrap.ts installs pino). */
  bufferLogs?: boolean;
  /** The API's error body, from the `{error}` one every error answer starts as. */
  errorShape?: ErrorShape;
}

export async function createHttpApp(module: DynamicModule, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: true,
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    // The request id of the log line and of X-Request-Id (logging.ts).
    genReqId: requestId,
    frameworkErrors: frameworkErrors(options.errorShape),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: options.logger ?? logLevels(),
    bufferLogs: options.bufferLogs,
    // Bodies are JSON only, parsed by registerJsonBodyParser (gzip, size limit, error body).
    bodyParser: false,
  });
  app.useGlobalFilters(new ErrorBodyFilter(options.errorShape));
  registerJsonBodyParser(app.getHttpAdapter().getInstance(), MAX_BODY_BYTES);
  app.enableShutdownHooks();
  SwaggerModule.setup('docs', app, apiDocumentOf(app, options), { jsonDocumentUrl: 'openapi.json' });
  return app;
}

/** The API document an app serves at /openapi.json (and the consoles' generated clients are built from). */
export function apiDocumentOf(app: INestApplication, options: Pick<HttpAppOptions, 'title' | 'description'>) {
  return documentSharedAnswers(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle(options.title)
        .setDescription(options.description)
        .setVersion('1')
        .addBearerAuth()
        .build(),
    ),
  );
}

export async function listen(app: INestApplication, port: number, host: string): Promise<string> {
  await app.listen(port, host);
  return app.getUrl();
}
