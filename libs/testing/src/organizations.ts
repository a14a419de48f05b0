import { databaseConfigFromEnv, ownerDataSource } from '@agentwatch/db';
import { insertDeployToken, insertOrganization } from '@agentwatch/identity';
import { v7 as uuidv7 } from 'uuid';
import { infrastructureEnv } from './test-env';

export interface TestOrganization {
  orgId: string;
  token: string;
}

/** Creates an organization and a deploy token the way `agentwatch create-org` does. */
export async function createOrganization(
  name: string,
  env: NodeJS.ProcessEnv = infrastructureEnv(),
): Promise<TestOrganization> {
  const dataSource = await ownerDataSource(databaseConfigFromEnv(env)).initialize();
  try {
    const orgId = uuidv7();
    return await dataSource.transaction(async (tx) => {
      await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
      await insertOrganization(tx, orgId, name);
      const token = await insertDeployToken(tx, orgId, uuidv7(), 'test');
      return { orgId, token: token.token };
    });
  } finally {
    await dataSource.destroy();
  }
}
