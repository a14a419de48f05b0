import { HttpException } from '@nestjs/common';
import { FastifyInstance } from 'fastify';
import { NOT_AN_OBJECT, NOT_ONE_DOCUMENT, unknownFields } from '../domain/tenant-request';

/** What a body that is not exactly one JSON document parses to; the route answers 400 after auth. */
export const MALFORMED = Symbol('malformed-json');

/**
 * Strict JSON for the operator surface: the parse happens here but the refusal waits for the route,
 * so a request without a valid token gets the fixed 403 whatever its body. `JSON.parse` already
 * refuses a second document after the first; an empty body is "no body".
 */
export function registerStrictJsonParser(fastify: FastifyInstance, maxBytes: number): void {
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBytes }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, MALFORMED);
    }
  });
}

export function badRequest(detail: string): HttpException {
  return new HttpException({ error: 'bad_request', detail }, 400);
}

/** The body of a route that takes none: absent or `{}`; anything else is refused. */
export function assertEmptyBody(body: unknown): void {
  if (body === MALFORMED) throw badRequest(NOT_ONE_DOCUMENT);
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(NOT_AN_OBJECT);
  const keys = Object.keys(body);
  if (keys.length > 0) throw badRequest(unknownFields(keys));
}

export function assertWellFormed(body: unknown): unknown {
  if (body === MALFORMED) throw badRequest(NOT_ONE_DOCUMENT);
  return body;
}
