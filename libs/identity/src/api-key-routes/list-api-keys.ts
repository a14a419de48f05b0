import { OrgScope } from '@agentwatch/db';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { API_KEY_COLUMNS, ApiKeyList, ApiKeyRow, toApiKeyView } from './api-key-view';

/** GET /v1/api-keys: every key of the organization, expired and revoked ones too, oldest first. */
export class ListApiKeys extends Query<ApiKeyList> {
  constructor(readonly orgId: string) {
    super();
  }
}

@QueryHandler(ListApiKeys)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeys> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId }: ListApiKeys): Promise<ApiKeyList> {
    const rows: ApiKeyRow[] = await this.db.run(orgId, (q) =>
      q.query(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at, id`, [orgId]),
    );
    return { api_keys: rows.map(toApiKeyView) };
  }
}
