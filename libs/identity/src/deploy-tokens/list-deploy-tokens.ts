import { OrgScope } from '@agentwatch/db';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DEPLOY_TOKEN_COLUMNS, DeployTokenList, DeployTokenRow, toDeployTokenView } from './deploy-token-view';

/** GET /v1/deploy-tokens: oldest first. */
export class ListDeployTokens extends Query<DeployTokenList> {
  constructor(readonly orgId: string) {
    super();
  }
}

@QueryHandler(ListDeployTokens)
export class ListDeployTokensHandler implements IQueryHandler<ListDeployTokens> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId }: ListDeployTokens): Promise<DeployTokenList> {
    const rows: DeployTokenRow[] = await this.db.run(orgId, (q) =>
      q.query(`SELECT ${DEPLOY_TOKEN_COLUMNS} FROM deploy_tokens WHERE org_id = $1 ORDER BY created_at, id`, [orgId]),
    );
    return { deploy_tokens: rows.map(toDeployTokenView) };
  }
}
