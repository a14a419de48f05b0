import { FastifyInstance } from 'fastify';

// Form posts are small (a sign-in form, a token request); anything larger is not one of ours.
const MAX_FORM_BYTES = 16 * 1024;

/**
 * application/x-www-form-urlencoded bodies as a record; a repeated name becomes an array, which the
 * OAuth checks refuse (RFC 6749 §3.1). The apps otherwise parse JSON only.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => {
      const params: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        const seen = params[name];
        params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
      }
      done(null, params);
    },
  );
}
