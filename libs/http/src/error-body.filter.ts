import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { RetryLater } from './api-errors';

/** Every error answer is a JSON object with a string `error` field (spec §7), whatever raised it. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  /** `shape` turns the `{error}` answer into an API's own error body (the control plane's `{error, detail}`). */
  constructor(private readonly shape: ErrorShape = (_, body) => body) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    // Apps that also run a transport inherit this filter; outside HTTP the error must reach the
    // transport unchanged (a projection batch then rolls back and is retried).
    if (host.getType() !== 'http') throw exception;
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const [status, body] = errorAnswer(exception);
    if (status >= 500 && status !== 503)
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (exception instanceof RetryLater) void reply.header('Retry-After', String(exception.retryAfterSeconds));
    void reply.status(status).send(this.shape(status, body));
  }
}

export type ErrorShape = (status: number, body: Record<string, unknown>) => Record<string, unknown>;

export function errorAnswer(exception: unknown): [number, Record<string, unknown>] {
  if (exception instanceof HttpException) {
    const response = exception.getResponse();
    if (
      typeof response === 'object' &&
      response !== null &&
      typeof (response as { error?: unknown }).error === 'string'
    ) {
      const { statusCode: _, message, ...rest } = response as Record<string, unknown>;
      // Nest's built-in exceptions carry {error: 'Not Found', message}; the message is the useful part.
      return [exception.getStatus(), typeof message === 'string' ? { ...rest, error: message } : rest];
    }
    return [exception.getStatus(), { error: typeof response === 'string' ? response : exception.message }];
  }
  return [500, { error: 'Internal server error' }];
}
