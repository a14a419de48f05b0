import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { insertApiKey } from '../api-keys';
import { CreatedApiKeyView } from './api-key-view';

export const MIN_API_KEY_TTL_SECONDS = 60;
export const MAX_API_KEY_TTL_SECONDS = 86_400;

export const createApiKeyBody = z.object({
  name: storable(z.string().trim().min(1).max(200)),
  // A console's sign-in key lives for its session, not forever: at most a day.
  ttl_seconds: z
    .number()
    .int()
    .min(MIN_API_KEY_TTL_SECONDS)
    .max(MAX_API_KEY_TTL_SECONDS)
    .nullish()
    .describe(
      'the key expires this many seconds after its creation (60 to 86400); without it (or null), it lasts until revoked',
    ),
});

/** POST /v1/api-keys: a scoring-API key bound to the caller's organization (the scoring API's customer). */
export class CreateApiKey extends Command<CreatedApiKeyView> {
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

  async execute({ orgId, body }: CreateApiKey): Promise<CreatedApiKeyView> {
    const validated = validateBody(createApiKeyBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const { name, ttl_seconds } = validated.value;
    const created = await this.db.run(orgId, (q) => insertApiKey(q, orgId, uuidv7(), name, ttl_seconds ?? null));
    return { ...created, customer_id: orgId };
  }
}
