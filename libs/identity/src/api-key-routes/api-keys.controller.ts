import { Authenticated, CurrentPrincipal, Principal } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody } from '@agentwatch/http';
import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateApiKey, createApiKeyBody } from './create-api-key';

@ApiTags('api keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @Authenticated(['jwt'])
  @ApiJsonBody(createApiKeyBody)
  @ApiAnswers(201, '`{id, name, key, prefix, created_at, customer_id}`', [400])
  @ApiOperation({
    summary: 'Create a scoring-API key',
    description:
      'Body `{name}` → 201 `{id, name, key, prefix, created_at, customer_id}`. The key (aw_sk_…) is sent as `X-API-Key` to the ' +
      "scoring API, where it sees only this organization's data (customer_id = organization id). Shown this once; only its SHA-256 is stored.",
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new CreateApiKey(principal.orgId, body));
  }
}
