import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { BadRequest, DomainError, FlowConflict, Forbidden, NoSuchFlow, Unprocessable } from '../domain/errors';

/** Typed domain errors → the statuses of spec §7, as `{error, detail}`. */
@Catch(DomainError)
export class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const [status, code] =
      error instanceof BadRequest
        ? [400, 'bad_request']
        : error instanceof Forbidden
          ? [403, 'forbidden']
          : error instanceof NoSuchFlow
            ? [404, 'not_found']
            : error instanceof FlowConflict
              ? [409, 'conflict']
              : error instanceof Unprocessable
                ? [422, 'unprocessable']
                : [500, 'internal'];
    void reply.status(status).send({ error: code, detail: error.message });
  }
}
