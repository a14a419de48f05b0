import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { databaseConfigFromEnv } from './database.config';
import { assertRowLevelSecurityApplies, OrgScope } from './org-scope';

const connect = (url: string) => new DataSource({ type: 'postgres', url }).initialize();

describe('row-level security on the read models', () => {
  const config = databaseConfigFromEnv();
  let owner: DataSource;
  let app: DataSource;
  let projector: DataSource;
  const orgA = randomUUID();
  const orgB = randomUUID();
  const hashA = createHash('sha256').update(`token-${orgA}`).digest('hex');

  beforeAll(async () => {
    [owner, app, projector] = await Promise.all([
      connect(config.ownerUrl),
      connect(config.appUrl),
      connect(config.projectorUrl),
    ]);
    for (const [org, hash] of [
      [orgA, hashA],
      [orgB, `other-${orgB}`],
    ]) {
      await owner.transaction(async (tx) => {
        await tx.query(`SELECT set_config('app.org_id', $1, true)`, [org]);
        await tx.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [org, `org ${org}`]);
        await tx.query(
          `INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix) VALUES ($1, $2, 't', $3, 'svc_deploy_x')`,
          [randomUUID(), org, hash],
        );
      });
      // The projector's role writes every organization's rows.
      await projector.query(
        `INSERT INTO events (org_id, id, action_type, decision, "timestamp", received_at)
         VALUES ($1, $2, 'FILE_READ', 'allow', now(), now()), ($1, $3, 'FILE_READ', 'allow', now(), now())`,
        [org, randomUUID(), randomUUID()],
      );
    }
  });

  afterAll(async () => {
    await Promise.all([owner, app, projector].map((ds) => ds?.destroy()));
  });

  it('shows the application role no tenant row at all while app.org_id is unset', async () => {
    for (const table of ['organizations', 'deploy_tokens', 'memberships', 'machines', 'events', 'sessions', 'agents']) {
      const [{ count }] = await app.query(`SELECT count(*)::int AS count FROM ${table}`);
      expect({ table, count }).toEqual({ table, count: 0 });
    }
  });

  it("shows an organization's transaction its own rows only", async () => {
    const scope = new OrgScope(app);
    const seen = await scope.run(orgA, (q) => q.query('SELECT DISTINCT org_id FROM events'));
    expect(seen).toEqual([{ org_id: orgA }]);
    const orgs = await scope.run(orgA, (q) => q.query('SELECT id FROM organizations'));
    expect(orgs).toEqual([{ id: orgA }]);
  });

  it('refuses to write a row into another organization', async () => {
    const scope = new OrgScope(app);
    await expect(
      scope.run(orgA, (q) =>
        q.query(`INSERT INTO deploy_tokens (id, org_id, name, token_hash, prefix) VALUES ($1, $2, 'x', $3, 'p')`, [
          randomUUID(),
          orgB,
          randomUUID(),
        ]),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('lets authentication read exactly the token row whose hash is presented', async () => {
    const rows = await new OrgScope(app).lookupByTokenHash(hashA, (q) => q.query('SELECT org_id FROM deploy_tokens'));
    expect(rows).toEqual([{ org_id: orgA }]);
  });

  it('lets the API serve only from a role that cannot bypass row-level security', async () => {
    await expect(assertRowLevelSecurityApplies(app)).resolves.toBeUndefined();
    await expect(assertRowLevelSecurityApplies(owner)).rejects.toThrow(/bypass row-level security/);
    await expect(assertRowLevelSecurityApplies(projector)).rejects.toThrow(/bypass row-level security/);
    const [role] = await app.query('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user');
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('does not let the application role write the read models', async () => {
    await expect(
      app.query(
        `INSERT INTO events (org_id, id, action_type, decision, "timestamp", received_at) VALUES ($1, $2, 'FILE_READ', 'allow', now(), now())`,
        [orgA, randomUUID()],
      ),
    ).rejects.toThrow(/permission denied/);
  });
});
