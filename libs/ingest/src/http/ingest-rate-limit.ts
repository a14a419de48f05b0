import { AuthenticatedRequest } from '@agentwatch/auth';
import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  HttpException,
  Injectable,
  NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { Observable } from 'rxjs';

export abstract class IngestRateLimiter {
  abstract limiter: RateLimiterAbstract;
  abstract limit: number;
}

/**
 * Per organization and ingest route, shared by every API replica through Postgres
 * (rate-limiter-flexible's store). Once a key is over its limit, each replica refuses it from memory
 * until the window ends, so a flood does not become a flood of queries.
 */
@Injectable()
export class IngestRateLimit implements NestInterceptor {
  constructor(private readonly rate: IngestRateLimiter) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest & { routeOptions?: { url?: string } }>();
    const reply = http.getResponse<FastifyReply>();
    const key = `${request.principal!.orgId}:${request.routeOptions?.url ?? context.getHandler().name}`;
    try {
      this.announce(reply, await this.rate.limiter.consume(key));
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      this.announce(reply, refusal);
      reply.header('Retry-After', String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))));
      throw new HttpException({ error: 'Rate limit exceeded' }, 429);
    }
    return next.handle();
  }

  private announce(reply: FastifyReply, state: RateLimiterRes): void {
    reply.header('RateLimit-Limit', String(this.rate.limit));
    reply.header('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
    reply.header('RateLimit-Reset', String(Math.max(0, Math.ceil(state.msBeforeNext / 1000))));
  }
}

export const RateLimited = () =>
  applyDecorators(
    UseInterceptors(IngestRateLimit),
    ApiTooManyRequestsResponse({
      description:
        '`{"error":"Rate limit exceeded"}` with `Retry-After` (seconds). Every answer of a rate-limited route carries ' +
        '`RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window resets).',
    }),
  );
