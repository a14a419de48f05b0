import { OpenAPIObject } from '@nestjs/swagger';
import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorShape } from './error-body.filter';

/**
 * Longest path segment the router accepts. Ids a client chooses (a machine_id has up to 256
 * characters, several bytes each once percent-encoded) must fit; the URL as a whole is bounded by
 * Node's header size limit anyway.
 */
export const MAX_PATH_SEGMENT = 4096;

/**
 * The router refuses some paths before any route runs (malformed percent-encoding, an overlong
 * segment): answered like every other client mistake, `400 {"error"}`, instead of Fastify's own
 * `{error: "Bad Request", code, statusCode}` with a 414.
 */
export const frameworkErrors =
  (shape: ErrorShape = (_, body) => body) =>
  (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const status = error.statusCode !== undefined && error.statusCode < 500 ? 400 : 500;
    const error_ = status === 400 ? 'Invalid URL: a path segment is malformed or too long' : 'Internal server error';
    void reply.code(status).send(shape(status, { error: error_ }));
  };

const errorBody = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] };

const BODY_ANSWERS: Record<string, string> = {
  '400': 'Malformed JSON body, or one the route does not accept',
  '413': 'A body over 5 MB (also once gzip-decompressed)',
  '415': 'A Content-Type other than `application/json`, or a Content-Encoding other than gzip',
};
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Answers every route of an app can give because the HTTP layer gives them before the route runs:
 * the body parser's (any method that carries a body) and the router's (any path with parameters).
 * Documented here once, so no route's own decorators can forget them.
 */
export function documentSharedAnswers(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const answers: Record<string, string> = {};
      if (BODY_METHODS.has(method)) Object.assign(answers, BODY_ANSWERS);
      if (path.includes('{')) answers['400'] ??= 'A malformed or overlong path parameter';
      for (const [status, description] of Object.entries(answers))
        operation.responses[status] ??= { description, content: { 'application/json': { schema: errorBody } } };
    }
  }
  return document;
}
