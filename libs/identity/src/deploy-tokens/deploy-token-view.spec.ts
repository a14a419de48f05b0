import { ServiceTokenVerifier } from '@agentwatch/auth';
import { OrgScope } from '@agentwatch/db';
import { CreateDeployToken, CreateDeployTokenHandler } from './create-deploy-token';
import {
  createdDeployTokenView,
  DeployTokenRow,
  deployTokenList,
  deployTokenView,
  revokedDeployToken,
  toDeployTokenView,
} from './deploy-token-view';
import { ListDeployTokens, ListDeployTokensHandler } from './list-deploy-tokens';
import { RevokeDeployToken, RevokeDeployTokenHandler } from './revoke-deploy-token';

const ORG = '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b';
const row: DeployTokenRow = {
  id: '0192a3b4-c5d6-7e8f-9a0b-000000000001',
  name: 'fleet',
  prefix: 'svc_deploy_abc123',
  token_hash: 'f'.repeat(64),
  created_at: new Date('2026-10-01T08:00:00.000Z'),
  last_used_at: null,
  revoked_at: null,
};
const revoked = { ...row, last_used_at: new Date('2026-10-01T09:00:00.000Z'), revoked_at: new Date() };

/** A scope whose queries all answer these rows. */
const answering = (rows: unknown[]) =>
  ({
    run: (_orgId: string, work: (q: unknown) => unknown) => work({ query: async () => rows }),
  }) as unknown as OrgScope;

// parse() drops what the schema does not name: equal after parsing means nothing is undocumented (a hash, say).
describe('the documented deploy token answers', () => {
  it('a stored token reads as the view, never with its hash', () => {
    for (const view of [toDeployTokenView(row), toDeployTokenView(revoked)])
      expect(deployTokenView.parse(view)).toEqual(view);
  });

  it('POST /v1/deploy-tokens', async () => {
    const handler = new CreateDeployTokenHandler(answering([{ created_at: row.created_at }]));
    const created = await handler.execute(new CreateDeployToken(ORG, { name: 'fleet' }));
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(createdDeployTokenView.parse(created)).toEqual(created);
  });

  it('GET /v1/deploy-tokens', async () => {
    const list = await new ListDeployTokensHandler(answering([row, revoked])).execute(new ListDeployTokens(ORG));
    expect(deployTokenList.parse(list)).toEqual(list);
  });

  it('DELETE /v1/deploy-tokens/{id}', async () => {
    const verifier = { forgetHash: () => undefined } as unknown as ServiceTokenVerifier;
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const answer = await new RevokeDeployTokenHandler(answering([[revoked], 1]), verifier).execute(
      new RevokeDeployToken(ORG, row.id),
    );
    expect(revokedDeployToken.parse(answer)).toEqual(answer);
  });
});
