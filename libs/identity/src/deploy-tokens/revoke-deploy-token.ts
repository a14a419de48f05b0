import { ServiceTokenVerifier } from '@agentwatch/auth';
import { OrgScope, updateReturning } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DEPLOY_TOKEN_COLUMNS, DeployTokenRow, RevokedDeployToken, toDeployTokenView } from './deploy-token-view';

/** DELETE /v1/deploy-tokens/{id}: idempotent, the first revocation time stays. */
export class RevokeDeployToken extends Command<RevokedDeployToken> {
  constructor(
    readonly orgId: string,
    readonly id: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeDeployToken)
export class RevokeDeployTokenHandler implements ICommandHandler<RevokeDeployToken> {
  constructor(
    private readonly db: OrgScope,
    private readonly verifier: ServiceTokenVerifier,
  ) {}

  async execute({ orgId, id }: RevokeDeployToken): Promise<RevokedDeployToken> {
    const [row] = await this.db.run(orgId, (q) =>
      updateReturning<DeployTokenRow>(
        q,
        `UPDATE deploy_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE org_id = $1 AND id = $2 RETURNING ${DEPLOY_TOKEN_COLUMNS}`,
        [orgId, id],
      ),
    );
    if (!row) throw notFound('Deploy token');
    this.verifier.forgetHash(row.token_hash);
    return { deploy_token: toDeployTokenView(row) };
  }
}
