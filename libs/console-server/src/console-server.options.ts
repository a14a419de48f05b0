/** An API behind the console's same-origin proxy: `prefix` is stripped before the request goes on. */
export interface ApiUpstream {
  prefix: `/api/${string}`;
  url: string;
}

// An abstract class rather than an interface so that it doubles as the Nest injection token.
export abstract class ConsoleServerOptions {
  /** The Vite build of the console (index.html and assets/). */
  abstract webDir: string;
  abstract oidc: {
    /** The identity provider's issuer URL; null: this console's development provider at /oidc. */
    issuer: string | null;
    clientId: string;
    scope: string;
  };
  abstract upstreams: ApiUpstream[];
}

/** Where the identity provider sends the browser back to; the SPA completes the code exchange there. */
export const REDIRECT_PATH = '/callback';
export const DEFAULT_SCOPE = 'openid profile email';
