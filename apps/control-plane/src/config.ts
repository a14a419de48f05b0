import { integerText, parseConfig, port, text, textVariables, urlText } from '@agentwatch/config';
import { DatabaseConfig, databaseConfigFromEnv, databaseEnv } from '@agentwatch/db';
import { ServerConfig, serverEnv } from '@agentwatch/http';
import { KafkaSettings, kafkaEnv, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import { cellsProblems, TenancySettings, tenancySettingsFromEnv } from '@agentwatch/tenancy';
import { z } from 'zod';

const milliseconds = integerText('a positive integer (milliseconds)', 1);

export const controlPlaneConfigSchema = z
  .object({
    ...serverEnv,
    ...databaseEnv,
    ...kafkaEnv,
    CONTROL_PLANE_PORT: port(8082),
    OPERATOR_JWKS_URL: urlText(['https', 'http']),
    OPERATOR_JWT_ISSUER: text(),
    OPERATOR_DEV_ISSUER_DIR: text(),
    OPERATOR_CLIENT_ID: text(),
    OPERATOR_ROLE_CLAIM: text(),
    CONTROL_CELLS: text().superRefine((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return;
      for (const message of cellsProblems(raw)) ctx.addIssue({ code: 'custom', message });
    }),
    CONTROL_RETRY_BASE_MS: milliseconds,
    CONTROL_RETRY_MAX_MS: milliseconds,
    CONTROL_RETRY_MAX_ATTEMPTS: integerText('a positive integer (attempts)', 1),
    CONTROL_STEP_LEASE_MS: milliseconds,
    CONTROL_POLL_MS: milliseconds,
    CONTROL_OUTBOX_RETENTION_HOURS: integerText('a positive integer (hours)', 1),
    CONTROL_SSE_HEARTBEAT_MS: milliseconds,
  })
  .transform((env) => {
    const database = databaseConfigFromEnv(textVariables(env));
    return {
      port: env.CONTROL_PLANE_PORT,
      host: env.HOST,
      logLevel: env.LOG_LEVEL,
      database,
      kafka: kafkaSettingsFromEnv('agentwatch-control-plane', textVariables(env)),
      tenancy: tenancySettingsFromEnv(textVariables(env), database.adminUrl),
    };
  });

export interface ControlPlaneConfig extends ServerConfig {
  database: DatabaseConfig;
  kafka: KafkaSettings;
  tenancy: TenancySettings;
}

export function controlPlaneConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  return parseConfig(controlPlaneConfigSchema, env);
}
