import { integer } from '@agentwatch/config';
import { DatabaseConfig } from '@agentwatch/db';
import { CellsSettings } from './tenant-databases';

/** The variable every data-plane app reads for its tenant databases (next to databaseEnv's). */
export const cellsEnv = {
  TENANT_DATABASE_POOL_SIZE: integer('a positive integer (connections)', 4, 1, 100),
};

/** A data-plane app's tenant pools: its product role and the deployment's role password, on every cell. */
export function cellsSettingsOf(
  role: CellsSettings['role'],
  applicationName: string,
  database: Pick<DatabaseConfig, 'rolePassword'>,
  env: { TENANT_DATABASE_POOL_SIZE: number },
): CellsSettings {
  return { role, rolePassword: database.rolePassword, poolSize: env.TENANT_DATABASE_POOL_SIZE, applicationName };
}
