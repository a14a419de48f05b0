import { databaseConfigFromEnv, ownerDataSource } from '@agentwatch/db';
import type { BootOptions } from '@agentwatch/http';
import { insertApiKey } from '@agentwatch/identity';
import { v7 as uuidv7 } from 'uuid';
import { scoringApiConfigFromEnv } from '../../../apps/scoring-api/src/config';
import { startScoringApi } from '../../../apps/scoring-api/src/main';
import { scoringWorkerConfigFromEnv } from '../../../apps/scoring-worker/src/config';
import { startScoringWorker } from '../../../apps/scoring-worker/src/main';
import { RunningStack, startStack } from './stack';
import { infrastructureEnv } from './test-env';

export interface RunningScoringStack extends RunningStack {
  scoringUrl: string;
  workerUrl: string;
}

/** Cloud API, projector, scoring worker and scoring API in-process, on ephemeral ports. */
export async function startScoringStack(
  suite: string,
  extra: Record<string, string> = {},
  boot: BootOptions = {},
): Promise<RunningScoringStack> {
  const stack = await startStack(suite, { SCORING_API_PORT: '0', SCORING_WORKER_PORT: '0', ...extra }, boot);
  const worker = await startScoringWorker(scoringWorkerConfigFromEnv(stack.env), boot);
  const api = await startScoringApi(scoringApiConfigFromEnv(stack.env), boot);
  return {
    ...stack,
    scoringUrl: api.url.replace('[::1]', '127.0.0.1'),
    workerUrl: worker.url.replace('[::1]', '127.0.0.1'),
    async stop() {
      await api.app.close();
      await worker.app.close();
      await stack.stop();
    },
  };
}

/** An API key of the scoring API for an organization, as `POST /v1/api-keys` will issue it. */
export async function createApiKey(orgId: string, env: NodeJS.ProcessEnv = infrastructureEnv()): Promise<string> {
  const dataSource = await ownerDataSource(databaseConfigFromEnv(env)).initialize();
  try {
    return await dataSource.transaction(async (tx) => {
      await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
      return (await insertApiKey(tx, orgId, uuidv7(), 'test')).key;
    });
  } finally {
    await dataSource.destroy();
  }
}
