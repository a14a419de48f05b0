import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { databaseConfigFromEnv } from './database.config';
import { beginScoped, endScoped, inScopedTransaction, Queryable } from './scoped-transaction';

const connect = (url: string) => new DataSource({ type: 'postgres', url }).initialize();

describe('scoped transactions: BEGIN and the settings in one round trip', () => {
  const config = databaseConfigFromEnv();
  let owner: DataSource;
  let app: DataSource;
  const org = randomUUID();

  beforeAll(async () => {
    [owner, app] = await Promise.all([connect(config.ownerUrl), connect(config.appUrl)]);
    await owner.transaction(async (tx) => {
      await tx.query(`SELECT set_config('app.org_id', $1, true)`, [org]);
      await tx.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [org, `org ${org}`]);
    });
  });

  afterAll(async () => {
    if (owner) {
      await inScopedTransaction(owner, { 'app.org_id': org }, (q) =>
        q.query('DELETE FROM organizations WHERE id = $1', [org]),
      );
    }
    await Promise.all([owner, app].map((ds) => ds?.destroy()));
  });

  it('sets each value exactly as given, quotes and backslashes included, for that transaction only', async () => {
    const hostile = `it's \\'; SELECT pg_sleep(10); -- "x" \\\\ é`;
    const seen = await inScopedTransaction(app, { 'app.org_id': org, 'app.subject': hostile }, (q) =>
      q.query(`SELECT current_setting('app.org_id') AS org, current_setting('app.subject') AS subject`),
    );
    expect(seen).toEqual([{ org, subject: hostile }]);
    const [after] = await app.query(`SELECT current_setting('app.subject', true) AS subject`);
    expect(after.subject ?? '').toBe('');
  });

  it("answers the organization's rows under row-level security, and no other's", async () => {
    const mine = await inScopedTransaction(app, { 'app.org_id': org }, (q) => q.query('SELECT id FROM organizations'));
    expect(mine).toEqual([{ id: org }]);
    const none = await inScopedTransaction(app, { 'app.org_id': randomUUID() }, (q) =>
      q.query('SELECT id FROM organizations WHERE id = $1', [org]),
    );
    expect(none).toEqual([]);
  });

  it('commits what the work wrote when it resolves, and rolls it back when it throws', async () => {
    const kept = `kept ${randomUUID()}`;
    const dropped = `dropped ${randomUUID()}`;
    const rename = (name: string) => (q: Queryable) =>
      q.query('UPDATE organizations SET name = $1 WHERE id = $2', [name, org]);
    await inScopedTransaction(owner, { 'app.org_id': org }, rename(kept));
    await expect(
      inScopedTransaction(owner, { 'app.org_id': org }, async (q) => {
        await rename(dropped)(q);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    const names = await inScopedTransaction(owner, { 'app.org_id': org }, (q) =>
      q.query('SELECT name FROM organizations WHERE id = $1', [org]),
    );
    expect(names).toEqual([{ name: kept }]);
  });

  it('opens a read-only snapshot when asked, which refuses writes', async () => {
    const runner = owner.createQueryRunner();
    try {
      await beginScoped(runner, { 'app.org_id': org }, 'readOnlySnapshot');
      const [mode] = await runner.query(
        `SELECT current_setting('transaction_isolation') AS isolation, current_setting('transaction_read_only') AS ro`,
      );
      expect(mode).toEqual({ isolation: 'repeatable read', ro: 'on' });
      await expect(runner.query('UPDATE organizations SET name = name WHERE id = $1', [org])).rejects.toThrow(
        /read-only transaction/,
      );
      await endScoped(runner, false);
    } finally {
      await runner.release();
    }
  });

  it('refuses a value holding a NUL before anything reaches the server', async () => {
    await expect(inScopedTransaction(app, { 'app.subject': 'a\0b' }, (q) => q.query('SELECT 1'))).rejects.toThrow(
      /NUL/,
    );
    // The pool's connection came back clean: the next transaction starts normally.
    const [row] = await inScopedTransaction(app, { 'app.org_id': org }, (q) => q.query('SELECT 1 AS one'));
    expect(row).toEqual({ one: 1 });
  });
});
