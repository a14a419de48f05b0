import { databaseConfigFromEnv } from '@agentwatch/db';
import { suiteEnv } from '@agentwatch/testing';
import { cloudApiConfigFromEnv } from '../../apps/cloud-api/src/config';
import { startCloudApi } from '../../apps/cloud-api/src/main';

describe('cloud API start-up', () => {
  it('refuses to serve from a database role that can bypass row-level security', async () => {
    const env = suiteEnv('e2e-startup', { CLOUD_API_PORT: '0', HOST: '127.0.0.1' });
    // The projector's role is BYPASSRLS: handing it to the API must stop the API from starting.
    const bypassing = { ...env, DATABASE_APP_URL: databaseConfigFromEnv(env).projectorUrl };
    await expect(startCloudApi(cloudApiConfigFromEnv(bypassing))).rejects.toThrow(/bypass row-level security/);
    const started = await startCloudApi(cloudApiConfigFromEnv(env));
    await started.app.close();
  });
});
