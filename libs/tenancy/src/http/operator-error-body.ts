import { PipeTransform } from '@nestjs/common';
import { NoSuchFlow } from '../domain/errors';
import { MAX_SLUG_LENGTH, SLUG_SHAPE } from '../domain/tenant-request';

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'forbidden',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  503: 'unavailable',
};

/**
 * The operator surface's error body, `{error, detail}` (spec 002 §7), for the answers no route of it
 * shapes: the HTTP layer's own refusals (a body of the wrong media type or size, a malformed URL)
 * and unexpected failures. `error` is the status's code, `detail` what was wrong.
 */
export function operatorErrorBody(status: number, body: Record<string, unknown>): Record<string, unknown> {
  if (typeof body.detail === 'string') return body;
  return { error: CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request'), detail: String(body.error) };
}

/** A slug that no tenant can have (over 56 characters, or characters a slug never holds) names no tenant: 404. */
export class SlugParam implements PipeTransform<string, string> {
  transform(slug: string): string {
    if (slug.length > MAX_SLUG_LENGTH || !SLUG_SHAPE.test(slug)) throw new NoSuchFlow('no tenant has that slug');
    return slug;
  }
}
