import { randomUUID } from 'node:crypto';
import { hashToken, mintDeployToken } from '@agentwatch/auth';
import { IngestTokenChangedV1 } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { ProjectedRecord } from '@agentwatch/kafka';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { IngestTokensProjection } from './ingest-tokens.projection';

describe('ingest tokens projection (the cloud API accepting tenant tokens), on Postgres', () => {
  let projector: DataSource;
  const projection = new IngestTokensProjection();
  const slug = `proj-${uuidv7()}`;
  const orgId = randomUUID();

  beforeAll(async () => {
    projector = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().projectorUrl }).initialize();
  });
  afterAll(() => projector?.destroy());

  const record = (payload: Partial<IngestTokenChangedV1>): ProjectedRecord<IngestTokenChangedV1> => {
    const token = mintDeployToken();
    return {
      id: uuidv7(),
      type: 'agentwatch.tenancy.ingest-token.v1',
      orgId,
      time: new Date().toISOString(),
      partition: 0,
      offset: '0',
      payload: {
        action: 'minted',
        token_id: uuidv7(),
        org_id: orgId,
        slug,
        organization_name: 'Projected Inc',
        token_hash: hashToken(token.raw),
        prefix: token.prefix,
        schema_version: '1732406400000',
        at: new Date().toISOString(),
        ...payload,
      },
    };
  };
  const apply = (records: ProjectedRecord<IngestTokenChangedV1>[]) =>
    projector.transaction((tx) => projection.apply({ tx, topic: 'tenancy.tokens.v1', records }));
  const tokenRow = async (id: string) =>
    (await projector.query('SELECT org_id, prefix, revoked_at FROM deploy_tokens WHERE id = $1', [id]))[0];

  it('writes the organization and an accepted deploy token; a replay changes nothing', async () => {
    const minted = record({});
    await apply([minted]);
    await apply([minted]);
    expect(await tokenRow(minted.payload.token_id)).toEqual({
      org_id: orgId,
      prefix: minted.payload.prefix,
      revoked_at: null,
    });
    const orgs = await projector.query('SELECT name FROM organizations WHERE id = $1', [orgId]);
    expect(orgs).toEqual([{ name: 'Projected Inc' }]);
  });

  it('revokes a token', async () => {
    const minted = record({});
    await apply([
      minted,
      record({ action: 'revoked', token_id: minted.payload.token_id, token_hash: minted.payload.token_hash }),
    ]);
    expect((await tokenRow(minted.payload.token_id)).revoked_at).not.toBeNull();
  });

  it('brings back no token of a deprovisioned tenant, however late it applies the record', async () => {
    const gone = randomUUID();
    await projector.query(
      `INSERT INTO tenancy_routes (org_id, slug, tenant_id, state, cell, region, server, database_name, schema_version)
       VALUES ($1, $2, $1, 'deprovisioned', 'local-1', 'local', '127.0.0.1:5432', 'tenant_gone', NULL)`,
      [gone, `gone-${gone}`],
    );
    const late = record({ org_id: gone });
    await apply([late]);
    expect(await tokenRow(late.payload.token_id)).toBeUndefined();
    expect(await projector.query('SELECT 1 FROM organizations WHERE id = $1', [gone])).toEqual([]);
  });

  it('refuses a token for a tenant whose schema_version is null', async () => {
    const unmigrated = record({ schema_version: null });
    await apply([unmigrated]);
    expect(await tokenRow(unmigrated.payload.token_id)).toBeUndefined();
  });
});
