import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { CreatedApiKey, insertApiKey } from '../api-keys';

export const createApiKeyBody = z.object({ name: storable(z.string().trim().min(1).max(200)) });

/** POST /v1/api-keys: a scoring-API key bound to the caller's organization (the scoring API's customer). */
export class CreateApiKey extends Command<CreatedApiKey & { customer_id: string }> {
  constructor(
    readonly orgId: string,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(CreateApiKey)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKey> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId, body }: CreateApiKey): Promise<CreatedApiKey & { customer_id: string }> {
    const validated = validateBody(createApiKeyBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const created = await this.db.run(orgId, (q) => insertApiKey(q, orgId, uuidv7(), validated.value.name));
    return { ...created, customer_id: orgId };
  }
}
