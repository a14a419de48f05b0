import { Authenticated, CurrentPrincipal, Principal } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody, READ_ERRORS, UuidParam } from '@agentwatch/http';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateDeployToken, createDeployTokenBody } from './create-deploy-token';
import { createdDeployTokenView, deployTokenList, revokedDeployToken } from './deploy-token-view';
import { ListDeployTokens } from './list-deploy-tokens';
import { RevokeDeployToken } from './revoke-deploy-token';

@ApiTags('deploy tokens')
@Controller('v1/deploy-tokens')
export class DeployTokensController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @Authenticated(['jwt'])
  @ApiJsonBody(createDeployTokenBody)
  @ApiOperation({
    summary: 'Create a deploy token',
    description:
      'Body `{name}` → 201 `{id, name, token, prefix, created_at}`. `token` (svc_deploy_…) is shown this once; only its SHA-256 is stored.',
  })
  @ApiAnswers(201, '`{id, name, token, prefix, created_at}`', [400], createdDeployTokenView)
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new CreateDeployToken(principal.orgId, body));
  }

  @Get()
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: 'List deploy tokens',
    description:
      '`{deploy_tokens:[{id, name, prefix, created_at, last_used_at, revoked_at}]}`, oldest first; never the token or its hash.',
  })
  @ApiAnswers(200, '`{deploy_tokens}`', [], deployTokenList)
  list(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new ListDeployTokens(principal.orgId));
  }

  @Delete(':id')
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: 'Revoke a deploy token',
    description:
      '200 `{deploy_token:{…, revoked_at}}`; idempotent; 404 for an unknown id. The token stops working at once on this replica and within 30 s on others.',
  })
  @ApiAnswers(200, '`{deploy_token}`', [...READ_ERRORS], revokedDeployToken)
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', UuidParam) id: string) {
    return this.commands.execute(new RevokeDeployToken(principal.orgId, id));
  }
}
