import { OrgScope, updateReturning } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { API_KEY_COLUMNS, ApiKeyRow, RevokedApiKey, toApiKeyView } from './api-key-view';

/**
 * DELETE /v1/api-keys/{id}: idempotent, the first revocation time stays. The scoring API, another
 * process, stops accepting the key once its verifier's cache entry lapses (10 s at most).
 */
export class RevokeApiKey extends Command<RevokedApiKey> {
  constructor(
    readonly orgId: string,
    readonly id: string,
  ) {
    super();
  }
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId, id }: RevokeApiKey): Promise<RevokedApiKey> {
    const [row] = await this.db.run(orgId, (q) =>
      updateReturning<ApiKeyRow>(
        q,
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE org_id = $1 AND id = $2 RETURNING ${API_KEY_COLUMNS}`,
        [orgId, id],
      ),
    );
    if (!row) throw notFound('API key');
    return { api_key: toApiKeyView(row) };
  }
}
