import { authConfigFromEnv, ensureDevIssuerKeys } from '@agentwatch/auth';
import type { BootOptions } from '@agentwatch/http';
import { cloudApiConfigFromEnv } from '../../../apps/cloud-api/src/config';
import { startCloudApi } from '../../../apps/cloud-api/src/main';
import { projectorConfigFromEnv } from '../../../apps/projector/src/config';
import { startProjector } from '../../../apps/projector/src/main';
import { infrastructureEnv } from './test-env';

/**
 * Environment of one test suite: the run's database (from `npm test`) and a topic prefix of its own,
 * so suites that run at the same time never share topics or consumer groups. Every product variable
 * the suite relies on is in `extra` (or left to the app's default), whatever the caller exported.
 */
export function suiteEnv(suite: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const runPrefix = process.env.KAFKA_TOPIC_PREFIX ?? `dev-${Date.now().toString(36)}.`;
  return { ...infrastructureEnv(), LOG_LEVEL: 'warn', KAFKA_TOPIC_PREFIX: `${runPrefix}${suite}.`, ...extra };
}

export interface RunningStack {
  apiUrl: string;
  projectorUrl: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

/**
 * The cloud API and the projector, as in production, on ephemeral ports of this machine. `boot` takes
 * their log lines elsewhere than stdout (a test that reads them).
 */
export async function startStack(
  suite: string,
  extra: Record<string, string> = {},
  boot: BootOptions = {},
): Promise<RunningStack> {
  const env = suiteEnv(suite, { CLOUD_API_PORT: '0', PROJECTOR_PORT: '0', HOST: '127.0.0.1', ...extra });
  // The API reads the development issuer's key when it boots: the stack makes it rather than count on
  // `agentwatch setup`, which skips it when the caller's shell exports AUTH_JWKS_URL.
  await ensureDevIssuerKeys(authConfigFromEnv(env).devIssuerDir);
  const projector = await startProjector(projectorConfigFromEnv(env), boot);
  const api = await startCloudApi(cloudApiConfigFromEnv(env), boot);
  return {
    apiUrl: api.url.replace('[::1]', '127.0.0.1'),
    projectorUrl: projector.url,
    env,
    async stop() {
      await api.app.close();
      await projector.app.close();
    },
  };
}
