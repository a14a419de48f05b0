import { DatabaseConfig, ownerDataSource } from '@agentwatch/db';
import { insertDeployToken, insertOrganization } from '@agentwatch/identity';
import { v7 as uuidv7 } from 'uuid';

export interface BenchOrganization {
  orgId: string;
  deployToken: string;
}

/** Creates organizations with a deploy token each, as `agentwatch create-org` does, over one connection. */
export async function createBenchOrganizations(database: DatabaseConfig, count: number): Promise<BenchOrganization[]> {
  const dataSource = await ownerDataSource(database).initialize();
  try {
    const created: BenchOrganization[] = [];
    for (let i = 0; i < count; i++) {
      const orgId = uuidv7();
      created.push(
        await dataSource.transaction(async (tx) => {
          await tx.query(`SELECT set_config('app.org_id', $1, true)`, [orgId]);
          await insertOrganization(tx, orgId, `bench org ${i}`);
          const token = await insertDeployToken(tx, orgId, uuidv7(), 'bench');
          return { orgId, deployToken: token.token };
        }),
      );
    }
    return created;
  } finally {
    await dataSource.destroy();
  }
}
