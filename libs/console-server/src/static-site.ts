import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleServerOptions } from './console-server.options';
import { htmlHeaders } from './security-headers';

// Paths the SPA never owns: an unknown one under them is a 404, not the app shell. The other routes of
// the server (/config.json, /health, /ready, /metrics) are registered routes and never reach here.
const SERVER_PATHS = /^\/(api|oidc)(\/|$)/;
// Vite names every file under assets/ after its content hash: it can be cached for good.
const HASHED = /^\/assets\//;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The SPA's files from its build directory, and index.html for every other GET (deep links). The
 * directory is looked at on each request, so a console built after the server started is served.
 */
export function registerStaticSite(fastify: FastifyInstance, options: ConsoleServerOptions): void {
  const root = path.resolve(options.webDir);
  const html = htmlHeaders(options.oidc.issuer);

  void fastify.register(async (scope) => {
    await scope.register(fastifyStatic, { root, serve: false, suppressWarning: true });

    scope.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = decodedPath(request.url);
      if (pathname === null) return reply.status(400).send({ error: 'Malformed path' });
      if (SERVER_PATHS.test(pathname)) return reply.status(404).send({ error: 'Not Found' });
      const file = await fileOf(root, pathname);
      if (file !== null && file !== 'index.html') {
        void reply.header('x-content-type-options', 'nosniff');
        void reply.header('cache-control', HASHED.test(pathname) ? IMMUTABLE : 'no-cache');
        return reply.sendFile(file, root, { cacheControl: false });
      }
      // A missing hashed asset is an old build's: answering the shell would fail as a script.
      if (HASHED.test(pathname)) return reply.status(404).send({ error: 'Not Found' });
      if ((await fileOf(root, '/index.html')) === null) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send('console not built: run npm run build\n');
      }
      return reply.headers(html).sendFile('index.html', root, { cacheControl: false });
    });
  });
}

function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?', 1)[0]);
  } catch {
    return null;
  }
}

/** The file a path names under root, relative to it; null for anything else (directories, dotfiles, escapes). */
async function fileOf(root: string, pathname: string): Promise<string | null> {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s.startsWith('.') || s.includes('\\') || s.includes('\0'))) {
    return null;
  }
  const resolved = path.join(root, ...segments);
  if (!resolved.startsWith(root + path.sep)) return null;
  try {
    return (await fs.promises.stat(resolved)).isFile() ? path.relative(root, resolved) : null;
  } catch {
    return null;
  }
}
