import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { ApiAnswers, ApiJsonBody, invalidBody } from '@agentwatch/http';
import { Body, Controller, Injectable, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { CreatedApiKey, insertApiKey } from '../api-keys';
import { Authenticated } from '../credential.guard';
import { CurrentPrincipal, Principal } from '../principal';

export const createApiKeyBody = z.object({ name: storable(z.string().trim().min(1).max(200)) });

/** Scoring-API keys, bound to the caller's organization (the scoring API's customer). */
@Injectable()
export class CreateApiKey {
  constructor(private readonly db: OrgScope) {}

  async execute(orgId: string, body: unknown): Promise<CreatedApiKey & { customer_id: string }> {
    const validated = validateBody(createApiKeyBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const created = await this.db.run(orgId, (q) => insertApiKey(q, orgId, uuidv7(), validated.value.name));
    return { ...created, customer_id: orgId };
  }
}

@ApiTags('api keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly createApiKey: CreateApiKey) {}

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
    return this.createApiKey.execute(principal.orgId, body);
  }
}
