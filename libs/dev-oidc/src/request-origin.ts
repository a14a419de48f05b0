import { FastifyRequest } from 'fastify';

/** The path the development provider is mounted at, on every console that runs one. */
export const DEV_OIDC_PATH = '/oidc';

// A host name, IPv4 or bracketed IPv6 address, with an optional port: the Host header is the
// browser's, so anything else (a path, a quote) is refused rather than echoed into URLs and pages.
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The origin the browser reached this console at. The development issuer's URL is derived from it,
 * so the same provider works at 127.0.0.1, localhost or a forwarded port without configuration.
 */
export function requestOrigin(request: FastifyRequest): string | null {
  const host = request.host;
  if (!host || !HOST.test(host)) return null;
  return `${request.protocol}://${host}`;
}

/** The issuer URL of this console's development provider, as this request's browser sees it. */
export function devIssuerOf(request: FastifyRequest): string | null {
  const origin = requestOrigin(request);
  return origin === null ? null : `${origin}${DEV_OIDC_PATH}`;
}
