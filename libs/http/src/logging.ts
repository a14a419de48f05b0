import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
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

/** Set by the HTTP layer (bootstrap.ts) before the answer is sent: the request log line reads them. */
export interface LoggedRequest extends IncomingMessage {
  routePattern?: string;
  orgId?: string | null;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface LoggingOptions {
  level: LogLevel;
  /** Where lines go; stdout unless a test captures them. */
  destination?: DestinationStream;
}

export function loggerModule(options: LoggingOptions): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: [
      {
        level: PINO_LEVELS[options.level],
        // A caller's X-Request-Id is kept when it is a plain token (it correlates with their logs).
        genReqId: (req: IncomingMessage, res: ServerResponse) => {
          const given = req.headers['x-request-id'];
          const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
          res.setHeader('X-Request-Id', id);
          return id;
        },
        // Only these fields of a request: never headers (Authorization, X-API-Key, cookies) nor bodies,
        // and the path without its query string.
        serializers: {
          req: (req: LoggedRequest & { id?: unknown }) => ({
            id: req.id,
            method: req.method,
            url: req.url?.split('?')[0],
          }),
          res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
        },
        customProps: (req: IncomingMessage) => {
          const { routePattern, orgId } = req as LoggedRequest;
          return { route: routePattern, ...(orgId ? { org_id: orgId } : {}) };
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
        customSuccessMessage: (req: IncomingMessage, res: ServerResponse) =>
          `${req.method} ${(req as LoggedRequest).routePattern ?? req.url?.split('?')[0]} ${res.statusCode}`,
      },
      scrubbing(options.destination ?? pino.destination({ dest: 1, sync: true })),
    ],
  });
}
