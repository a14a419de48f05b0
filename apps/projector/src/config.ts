import {
  databaseEnv,
  Infrastructure,
  infrastructure,
  kafkaEnv,
  parseConfig,
  port,
  ServerConfig,
  serverEnv,
} from '@agentwatch/http';
import { z } from 'zod';

export const projectorConfigSchema = z
  .object({ ...serverEnv, ...databaseEnv, ...kafkaEnv, PROJECTOR_PORT: port(8083) })
  .transform((env) => ({
    /** HTTP port of /health, /ready and /metrics. */
    port: env.PROJECTOR_PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    ...infrastructure(env, 'agentwatch-projector'),
  }));

export interface ProjectorConfig extends ServerConfig, Infrastructure {}

export function projectorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ProjectorConfig {
  return parseConfig(projectorConfigSchema, env);
}
