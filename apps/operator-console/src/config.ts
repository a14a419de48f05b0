import path from 'node:path';
import { parseConfig, port, text, textVariables, urlText } from '@agentwatch/config';
import { ConsoleServerOptions, DEFAULT_SCOPE } from '@agentwatch/console-server';
import { ServerConfig, serverEnv } from '@agentwatch/http';
import { OperatorAuthSettings, tenancySettingsFromEnv } from '@agentwatch/tenancy';
import { z } from 'zod';

export const operatorConsoleConfigSchema = z
  .object({
    ...serverEnv,
    OPERATOR_CONSOLE_PORT: port(8091),
    OPERATOR_CONSOLE_WEB_DIR: text(),
    OPERATOR_CONSOLE_OIDC_ISSUER: urlText(['https', 'http']),
    OPERATOR_CONSOLE_OIDC_SCOPE: text(),
    CONTROL_PLANE_URL: urlText(['http', 'https']),
    // The control plane's own operator variables, read by its own builder: one client id, one issuer.
    OPERATOR_JWKS_URL: urlText(['https', 'http']),
    OPERATOR_JWT_ISSUER: text(),
    OPERATOR_DEV_ISSUER_DIR: text(),
    OPERATOR_CLIENT_ID: text(),
    OPERATOR_ROLE_CLAIM: text(),
  })
  .transform((env) => {
    const operator = operatorSettingsFromEnv(textVariables(env));
    return {
      port: env.OPERATOR_CONSOLE_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      console: {
        webDir: env.OPERATOR_CONSOLE_WEB_DIR || path.join(process.cwd(), 'dist', 'web', 'operator-console'),
        oidc: {
          issuer: operatorIssuer(env.OPERATOR_CONSOLE_OIDC_ISSUER, operator),
          clientId: operator.clientId,
          scope: env.OPERATOR_CONSOLE_OIDC_SCOPE || DEFAULT_SCOPE,
        },
        upstreams: [{ prefix: '/api/control-plane', url: env.CONTROL_PLANE_URL ?? 'http://127.0.0.1:8082' }],
      } satisfies ConsoleServerOptions,
      operator,
    };
  });

/** The OPERATOR_* variables exactly as the control plane reads them (same defaults, same rules). */
function operatorSettingsFromEnv(env: NodeJS.ProcessEnv): OperatorAuthSettings {
  const operatorVariables = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('OPERATOR_')));
  return tenancySettingsFromEnv(operatorVariables, '').operator;
}

/**
 * The configured provider; else, while the control plane trusts a real provider (OPERATOR_JWKS_URL),
 * its issuer (OPERATOR_JWT_ISSUER); else null, the development provider the control plane trusts.
 */
function operatorIssuer(configured: string | undefined, operator: OperatorAuthSettings): string | null {
  if (configured) return configured;
  if (!operator.jwksUrl) return null;
  if (!URL.canParse(operator.issuer) || !/^https?:$/.test(new URL(operator.issuer).protocol)) {
    throw new Error(
      'OPERATOR_CONSOLE_OIDC_ISSUER: expected the identity provider’s issuer URL while OPERATOR_JWKS_URL is set (OPERATOR_JWT_ISSUER is no http(s) URL)',
    );
  }
  return operator.issuer;
}

export interface OperatorConsoleConfig extends ServerConfig {
  console: ConsoleServerOptions;
  operator: OperatorAuthSettings;
}

export function operatorConsoleConfigFromEnv(env: NodeJS.ProcessEnv = process.env): OperatorConsoleConfig {
  return parseConfig(operatorConsoleConfigSchema, env);
}
