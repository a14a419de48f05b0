import { ValidationIssue } from '@agentwatch/contracts';
import { HttpException } from '@nestjs/common';

export const invalidBody = (details: ValidationIssue[]) =>
  new HttpException({ error: 'Invalid request body', details }, 400);

export const notFound = (what: string) => new HttpException({ error: `${what} not found` }, 404);

export const badRequest = (error: string) => new HttpException({ error }, 400);

export const tooLarge = (error: string) => new HttpException({ error }, 413);

export const unavailable = (error: string) => new HttpException({ error }, 503);

/** A 503 `{"error"}` that tells the client when to try again: the answer carries `Retry-After` (seconds). */
export class RetryLater extends HttpException {
  constructor(
    error: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ error }, 503);
  }
}
