import path from 'node:path';
import { AuthConfig, authConfigFromEnv, authEnv } from '@agentwatch/auth';
import { parseConfig, port, text, textVariables, urlText } from '@agentwatch/config';
import { ConsoleServerOptions, DEFAULT_SCOPE } from '@agentwatch/console-server';
import { ServerConfig, serverEnv } from '@agentwatch/http';
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Other keys are ignored: npm start and the browser tests pass `agentwatch create-org`'s organization as it is.
const organizations = z.array(z.object({ id: z.string().regex(UUID, 'expected a UUID'), name: z.string() }));
export type DevOrganization = z.infer<typeof organizations>[number];

/** CONSOLE_DEV_ORGANIZATIONS: the organizations the development sign-in page offers (npm start: .local/dev-org.json). */
const devOrganizations = z.preprocess(
  (raw) => (raw === '' ? undefined : raw),
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return [];
      const parsed = organizations.safeParse(safeJson(raw));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: 'expected a JSON array of {id, name} with UUID ids' });
      return z.NEVER;
    }),
);

const safeJson = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};

export const productConsoleConfigSchema = z
  .object({
    ...serverEnv,
    ...authEnv,
    CONSOLE_PORT: port(8090),
    CONSOLE_WEB_DIR: text(),
    CONSOLE_OIDC_ISSUER: urlText(['https', 'http']),
    CONSOLE_OIDC_CLIENT_ID: text(),
    CONSOLE_OIDC_SCOPE: text(),
    CONSOLE_DEV_ORGANIZATIONS: devOrganizations,
    CLOUD_API_URL: urlText(['http', 'https']),
    SCORING_API_URL: urlText(['http', 'https']),
  })
  .transform((env) => {
    const auth = authConfigFromEnv(textVariables(env));
    return {
      port: env.CONSOLE_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      console: {
        webDir: env.CONSOLE_WEB_DIR || path.join(process.cwd(), 'dist', 'web', 'product-console'),
        oidc: {
          issuer: productIssuer(env.CONSOLE_OIDC_ISSUER, auth),
          clientId: env.CONSOLE_OIDC_CLIENT_ID || 'agentwatch-console',
          scope: env.CONSOLE_OIDC_SCOPE || DEFAULT_SCOPE,
        },
        upstreams: [
          { prefix: '/api/cloud', url: env.CLOUD_API_URL ?? 'http://127.0.0.1:8080' },
          { prefix: '/api/scoring', url: env.SCORING_API_URL ?? 'http://127.0.0.1:8081' },
        ],
      } satisfies ConsoleServerOptions,
      auth,
      devOrganizations: env.CONSOLE_DEV_ORGANIZATIONS,
    };
  });

/**
 * The identity provider the SPA signs in with: the configured one; else, while the cloud API trusts a
 * real provider (AUTH_JWKS_URL), that provider's issuer (AUTH_JWT_ISSUER, which an OIDC provider's
 * tokens carry as `iss`); else null, the development provider, whose tokens the API trusts.
 */
function productIssuer(configured: string | undefined, auth: AuthConfig): string | null {
  if (configured) return configured;
  if (!auth.jwksUrl) return null;
  if (!URL.canParse(auth.issuer) || !/^https?:$/.test(new URL(auth.issuer).protocol)) {
    throw new Error(
      'CONSOLE_OIDC_ISSUER: expected the identity provider’s issuer URL while AUTH_JWKS_URL is set (AUTH_JWT_ISSUER is no http(s) URL)',
    );
  }
  return auth.issuer;
}

export interface ProductConsoleConfig extends ServerConfig {
  console: ConsoleServerOptions;
  auth: AuthConfig;
  devOrganizations: DevOrganization[];
}

export function productConsoleConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProductConsoleConfig {
  return parseConfig(productConsoleConfigSchema, env);
}
