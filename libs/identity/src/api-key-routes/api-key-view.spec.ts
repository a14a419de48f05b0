import { OrgScope } from '@agentwatch/db';
import { ApiKeyRow, apiKeyList, createdApiKeyView, revokedApiKey } from './api-key-view';
import { CreateApiKey, CreateApiKeyHandler } from './create-api-key';
import { ListApiKeys, ListApiKeysHandler } from './list-api-keys';
import { RevokeApiKey, RevokeApiKeyHandler } from './revoke-api-key';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const row: ApiKeyRow = {
  id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
  name: 'ci',
  prefix: 'aw_sk_abc123',
  created_at: new Date('2026-10-01T08:00:00.000Z'),
  expires_at: null,
  revoked_at: null,
};
const expiring = {
  ...row,
  id: '0192a3b4-c5d6-7e8f-9a0b-000000000002',
  expires_at: new Date('2026-10-01T09:00:00.000Z'),
};
const revoked = { ...row, revoked_at: new Date('2026-10-02T08:00:00.000Z') };

/** A scope whose queries all answer these rows. */
const answering = (rows: unknown[]) =>
  ({
    run: (_orgId: string, work: (q: unknown) => unknown) => work({ query: async () => rows }),
  }) as unknown as OrgScope;

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented (a hash, say).
describe('the documented API key answers', () => {
  it.each([
    ['without a lifetime', {}, null],
    ['with ttl_seconds', { ttl_seconds: 3600 }, expiring.expires_at],
  ])('POST /v1/api-keys %s', async (_, extra, expiresAt) => {
    const handler = new CreateApiKeyHandler(answering([{ created_at: row.created_at, expires_at: expiresAt }]));
    const created = await handler.execute(new CreateApiKey(ORG, { name: 'ci', ...extra }));
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(createdApiKeyView.parse(created)).toEqual(created);
  });

  it('GET /v1/api-keys', async () => {
    const list = await new ListApiKeysHandler(answering([row, expiring, revoked])).execute(new ListApiKeys(ORG));
    expect(apiKeyList.parse(list)).toEqual(list);
  });

  it('DELETE /v1/api-keys/{id}', async () => {
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const answer = await new RevokeApiKeyHandler(answering([[revoked], 1])).execute(new RevokeApiKey(ORG, row.id));
    expect(revokedApiKey.parse(answer)).toEqual(answer);
  });
});
