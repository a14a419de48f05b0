/**
 * The console's HTML policy: its own scripts only (the Vite build has no inline script), inline
 * styles because Mantine injects style tags, and requests to this origin only (the APIs are behind
 * the same-origin proxy) plus the identity provider's, whose discovery and token endpoints the SPA
 * calls itself when one is configured.
 */
export function consolePolicy(issuer: string | null): string {
  const provider = issuer ? ` ${new URL(issuer).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${provider}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const htmlHeaders = (issuer: string | null) => ({
  'content-security-policy': consolePolicy(issuer),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
});
