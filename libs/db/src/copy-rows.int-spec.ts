import { DataSource } from 'typeorm';
import { copyRowsOnce, copyText } from './copy-rows';
import { databaseConfigFromEnv } from './database.config';

describe('copyRowsOnce: COPY in a savepoint, the fallback on a row stored already', () => {
  let db: DataSource;
  const table = `copy_rows_${process.pid}`;
  const rowsOf = async () =>
    db.query(`SELECT id, note, doc FROM ${table} ORDER BY id`) as Promise<{ id: number; note: string | null }[]>;

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().ownerUrl }).initialize();
    await db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, note text, doc jsonb)`);
  });

  afterAll(async () => {
    await db?.query(`DROP TABLE IF EXISTS ${table}`);
    await db?.destroy();
  });

  const fields = (id: number, note: string | null, doc: unknown) => [
    String(id),
    copyText(note),
    copyText(JSON.stringify(doc)),
  ];

  it('copies every field back as it was written, escapes and nulls included', async () => {
    const odd = 'tab\there\nnew line\r\\back\\slash \\N ünï 🚀';
    let fellBack = false;
    await db.transaction((tx) =>
      copyRowsOnce(tx, table, ['id', 'note', 'doc'], [fields(1, odd, { a: 'x\ty' }), fields(2, null, [])], async () => {
        fellBack = true;
      }),
    );
    expect(fellBack).toBe(false);
    expect(await rowsOf()).toEqual([
      { id: 1, note: odd, doc: { a: 'x\ty' } },
      { id: 2, note: null, doc: [] },
    ]);
  });

  it('rolls the copy back and runs the fallback when a row exists, and the transaction goes on', async () => {
    let fellBack = false;
    await db.transaction(async (tx) => {
      await copyRowsOnce(tx, table, ['id', 'note', 'doc'], [fields(3, 'new', {}), fields(1, 'again', {})], async () => {
        fellBack = true;
        await tx.query(
          `INSERT INTO ${table} (id, note, doc) VALUES (3, 'by the fallback', '{}') ON CONFLICT DO NOTHING`,
        );
      });
      await tx.query(`INSERT INTO ${table} (id, note, doc) VALUES (4, 'after', '{}')`);
    });
    expect(fellBack).toBe(true);
    const rows = await rowsOf();
    expect(rows.map((r) => [r.id, r.note])).toEqual([
      [1, expect.stringContaining('tab')],
      [2, null],
      [3, 'by the fallback'],
      [4, 'after'],
    ]);
  });

  it('lets any other refusal through, and the transaction rolls back whole', async () => {
    await expect(
      db.transaction((tx) =>
        copyRowsOnce(tx, table, ['id', 'note', 'doc'], [['5', 'bad json', '{not json']], async () => undefined),
      ),
    ).rejects.toThrow(/invalid input syntax for type json/);
    expect((await rowsOf()).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps an earlier copy of the same transaction when a later one falls back (its savepoint stays open)', async () => {
    await db.transaction(async (tx) => {
      await copyRowsOnce(tx, table, ['id', 'note', 'doc'], [fields(10, 'first copy', {})], async () => {
        throw new Error('the first copy meets no existing row');
      });
      await copyRowsOnce(tx, table, ['id', 'note', 'doc'], [fields(11, 'second', {}), fields(10, 'again', {})], () =>
        tx.query(`INSERT INTO ${table} (id, note, doc) VALUES (11, 'second, by the fallback', '{}')`),
      );
    });
    expect((await rowsOf()).filter((r) => r.id >= 10)).toEqual([
      { id: 10, note: 'first copy', doc: {} },
      { id: 11, note: 'second, by the fallback', doc: {} },
    ]);
  });

  it('is undone with an enclosing savepoint rolled back, and the transaction goes on', async () => {
    await db.transaction(async (tx) => {
      await tx.query('SAVEPOINT outer_work');
      await copyRowsOnce(tx, table, ['id', 'note', 'doc'], [fields(20, 'undone', {})], async () => undefined);
      await tx.query('ROLLBACK TO SAVEPOINT outer_work');
      await tx.query(`INSERT INTO ${table} (id, note, doc) VALUES (21, 'kept', '{}')`);
    });
    expect((await rowsOf()).filter((r) => r.id >= 20).map((r) => r.id)).toEqual([21]);
  });
});
