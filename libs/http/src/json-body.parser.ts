import { gunzip } from 'node:zlib';
import { HttpException } from '@nestjs/common';
import { FastifyInstance } from 'fastify';

const malformed = () => new HttpException({ error: 'Malformed JSON body' }, 400);

/**
 * JSON bodies, plain or `Content-Encoding: gzip`. The size limit holds for the decompressed body
 * too, so a small gzip bomb is refused with 413 like any other oversized body.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, maxBytes: number): void {
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: maxBytes },
    (request, body, done) => {
      const parse = (raw: Buffer) => {
        try {
          done(null, JSON.parse(raw.toString('utf8')));
        } catch {
          done(malformed(), undefined);
        }
      };
      const encoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding === 'identity') return parse(body as Buffer);
      if (encoding !== 'gzip') {
        return done(
          new HttpException({ error: `Unsupported Content-Encoding: ${encoding}; use gzip` }, 415),
          undefined,
        );
      }
      gunzip(body as Buffer, { maxOutputLength: maxBytes }, (error, inflated) => {
        if (!error) return parse(inflated);
        const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
        done(
          tooLarge
            ? new HttpException({ error: `Request body too large: at most ${maxBytes} bytes once decompressed` }, 413)
            : new HttpException({ error: 'Malformed gzip body' }, 400),
          undefined,
        );
      });
    },
  );
}
