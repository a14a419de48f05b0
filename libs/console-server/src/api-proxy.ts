import httpProxy from '@fastify/http-proxy';
import { FastifyInstance } from 'fastify';
import { ApiUpstream } from './console-server.options';

/**
 * The console's same-origin proxy: `/api/<name>/…` goes to that API with the prefix stripped, request
 * and response streamed both ways (so server-sent events arrive as they are written), headers as sent
 * (Authorization, X-API-Key, Last-Event-ID, Content-Type) but cookies, which belong to this origin.
 */
export function registerApiProxy(fastify: FastifyInstance, upstreams: ApiUpstream[]): void {
  void fastify.register(async (scope) => {
    // Bodies pass through as the browser sent them (JSON, gzip): the APIs parse and limit them.
    scope.removeAllContentTypeParsers();
    for (const { prefix, url } of upstreams) {
      await scope.register(httpProxy, {
        upstream: url,
        prefix,
        undici: {
          headersTimeout: 60_000,
          // An event stream is quiet between heartbeats for as long as the control plane is configured to.
          bodyTimeout: 0,
          // reply-from's default TLS options accept any certificate of an https API; these win over them.
          connect: { rejectUnauthorized: true },
        },
        replyOptions: {
          // The SPA sees an API's 503 as it is, never retried behind its back.
          retryDelay: () => null,
          rewriteRequestHeaders: (_request, headers) => {
            const { cookie: _, ...forwarded } = headers;
            return forwarded;
          },
          onError: (reply, { error }) => {
            const timedOut = (error as { statusCode?: number }).statusCode === 504;
            void reply.status(timedOut ? 504 : 502).send({
              error: timedOut ? 'Gateway Timeout' : 'Bad Gateway',
              detail: `the API behind ${prefix} did not answer`,
            });
          },
        },
      });
    }
  });
}
