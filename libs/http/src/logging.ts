import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { DynamicModule } from '@nestjs/common';
import { FastifyInstance } from 'fastify';
import { LoggerModule, PinoLogger } from 'nestjs-pino';
import pino, { DestinationStream, Level } from 'pino';
import { LogLevel } from './config/fragments';

// JSON logs, one line per request. pino-pretty is not a dependency: output is JSON on a terminal too.

const PINO_LEVELS: Record<LogLevel, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Credentials that may reach a log line inside a message (an error quoting a header, a URL): deploy
 * and machine tokens, scoring API keys, JWTs and whatever follows `Bearer`. Every line is scrubbed
 * before it is written, whatever logged it.
 */
const CREDENTIALS = [
  /svc_(deploy|machine)_[A-Za-z0-9_-]+/g,
  /aw_sk_[A-Za-z0-9_-]+/g,
  /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  /(Bearer\s+)[^\s"\\]+/gi,
];

export function scrubCredentials(line: string): string {
  return CREDENTIALS.reduce(
    (text, pattern) =>
      text.replace(pattern, (match, bearer?: string) =>
        match.match(/^Bearer/i) ? `${bearer}[Redacted]` : '[Redacted]',
      ),
    line,
  );
}

function scrubbing(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(scrubCredentials(line)) };
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is a plain token (it correlates with their logs). */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export interface LoggingOptions {
  level: LogLevel;
  /** Where lines go; stdout unless a test captures them. */
  destination?: DestinationStream;
}

/**
 * nestjs-pino gives every app its logger. The request line is not pino-http's middleware but a
 * Fastify hook (`logRequests`): the middleware runs through @fastify/middie and binds an
 * AsyncLocalStorage per request, which turns on promise hooks for the whole process and costs the
 * ingest path CPU on every promise (ADR 0010).
 */
export function loggerModule(options: LoggingOptions): DynamicModule {
  return LoggerModule.forRoot({
    forRoutes: [],
    pinoHttp: [
      {
        level: PINO_LEVELS[options.level],
        // Only these fields of a request: never headers (Authorization, X-API-Key, cookies) nor bodies,
        // and the path without its query string.
        serializers: {
          req: (req: { id?: unknown; method?: string; url?: string }) => ({
            id: req.id,
            method: req.method,
            url: req.url?.split('?')[0],
          }),
          res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        },
        redact: {
          paths: [
            'req.headers.authorization',
            'req.headers["x-api-key"]',
            'req.headers.cookie',
            'res.headers["set-cookie"]',
            'req.body',
            'body',
          ],
          censor: '[Redacted]',
        },
      },
      scrubbing(options.destination ?? pino.destination({ dest: 1, sync: true })),
    ],
  });
}

/** Where the credential guards leave the caller: a product principal, or a scoring API key. */
interface Authenticated {
  principal?: { orgId?: string | null };
  apiKey?: { orgId?: string };
}

/**
 * One line per answered request: request id (echoed as X-Request-Id), method, path, route,
 * organization, status and latency. The route and the organization are known to Fastify and the
 * credential guard only once the answer is ready, so the line is written when it is finished.
 */
export function logRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const logger = PinoLogger.root;
    if (!logger.isLevelEnabled('info')) return;
    const caller = request as unknown as Authenticated;
    const orgId = caller.principal?.orgId ?? caller.apiKey?.orgId;
    const route = request.routeOptions?.url;
    logger.info(
      {
        req: request,
        res: reply.raw,
        route,
        ...(orgId ? { org_id: orgId } : {}),
        responseTime: Math.round(reply.elapsedTime),
      },
      `${request.method} ${route ?? request.url.split('?')[0]} ${reply.statusCode}`,
    );
  });
}
