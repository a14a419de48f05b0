import { Authenticated, CurrentPrincipal, Principal } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody, READ_ERRORS, UuidParam } from '@agentwatch/http';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { apiKeyList, createdApiKeyView, revokedApiKey } from './api-key-view';
import { CreateApiKey, createApiKeyBody } from './create-api-key';
import { ListApiKeys } from './list-api-keys';
import { RevokeApiKey } from './revoke-api-key';

@ApiTags('api keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @Authenticated(['jwt'])
  @ApiJsonBody(createApiKeyBody)
  @ApiAnswers(201, '`{id, name, key, prefix, created_at, expires_at, customer_id}`', [400], createdApiKeyView)
  @ApiOperation({
    summary: 'Create a scoring-API key',
    description:
      'Body `{name, ttl_seconds?}` → 201 `{id, name, key, prefix, created_at, expires_at, customer_id}`. The key (aw_sk_…) is sent as `X-API-Key` to the ' +
      "scoring API, where it sees only this organization's data (customer_id = organization id). Shown this once; only its SHA-256 is stored. " +
      'With `ttl_seconds` (60–86400) the scoring API refuses it from `expires_at` on, like an unknown key; without it `expires_at` is null.',
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new CreateApiKey(principal.orgId, body));
  }

  @Get()
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: 'List scoring-API keys',
    description:
      '`{api_keys:[{id, name, prefix, created_at, expires_at, revoked_at}]}`, oldest first, expired and revoked keys included; ' +
      'never the key or its hash.',
  })
  @ApiAnswers(200, '`{api_keys}`', [], apiKeyList)
  list(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new ListApiKeys(principal.orgId));
  }

  @Delete(':id')
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: 'Revoke a scoring-API key',
    description:
      '200 `{api_key:{…, revoked_at}}`; idempotent; 404 for an unknown id or one of another organization. The scoring API ' +
      'refuses the key within 10 s.',
  })
  @ApiAnswers(200, '`{api_key}`', [...READ_ERRORS], revokedApiKey)
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', UuidParam) id: string) {
    return this.commands.execute(new RevokeApiKey(principal.orgId, id));
  }
}
