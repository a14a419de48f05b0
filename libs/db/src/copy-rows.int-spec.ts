import { DataSource } from 'typeorm';
import { CopyColumn, copyRowsOnce } from './copy-rows';
import { databaseConfigFromEnv } from './database.config';

describe('copyRowsOnce: a binary COPY in a savepoint, the fallback on a row stored already', () => {
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

  const columns: CopyColumn[] = [
    { name: 'id', type: 'int4' },
    { name: 'note', type: 'text' },
    { name: 'doc', type: 'jsonb' },
  ];
  const fields = (id: number, note: string | null, doc: unknown) => [id, note, JSON.stringify(doc)];

  it('copies every field back as it was written, nulls and characters text COPY escapes included', async () => {
    const odd = 'tab\there\nnew line\r\\back\\slash \\N ünï 🚀';
    let fellBack = false;
    await db.transaction((tx) =>
      copyRowsOnce(tx, table, columns, [fields(1, odd, { a: 'x\ty' }), fields(2, null, [])], async () => {
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
      await copyRowsOnce(tx, table, columns, [fields(3, 'new', {}), fields(1, 'again', {})], async () => {
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
      db.transaction((tx) => copyRowsOnce(tx, table, columns, [[5, 'bad json', '{not json']], async () => undefined)),
    ).rejects.toThrow(/invalid input syntax for type json/);
    expect((await rowsOf()).map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('keeps an earlier copy of the same transaction when a later one falls back (its savepoint stays open)', async () => {
    await db.transaction(async (tx) => {
      await copyRowsOnce(tx, table, columns, [fields(10, 'first copy', {})], async () => {
        throw new Error('the first copy meets no existing row');
      });
      await copyRowsOnce(tx, table, columns, [fields(11, 'second', {}), fields(10, 'again', {})], () =>
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
      await copyRowsOnce(tx, table, columns, [fields(20, 'undone', {})], async () => undefined);
      await tx.query('ROLLBACK TO SAVEPOINT outer_work');
      await tx.query(`INSERT INTO ${table} (id, note, doc) VALUES (21, 'kept', '{}')`);
    });
    expect((await rowsOf()).filter((r) => r.id >= 20).map((r) => r.id)).toEqual([21]);
  });

  describe('UUIDs and instants', () => {
    const typed = `copy_rows_typed_${process.pid}`;
    const typedColumns: CopyColumn[] = [
      { name: 'id', type: 'uuid' },
      { name: 'at', type: 'timestamptz' },
    ];
    const read = () => db.query(`SELECT id::text, at::text FROM ${typed} ORDER BY at, id`);

    beforeAll(() => db.query(`CREATE TABLE ${typed} (id uuid PRIMARY KEY, at timestamptz)`));
    afterAll(() => db.query(`DROP TABLE IF EXISTS ${typed}`));
    beforeEach(() => db.query(`TRUNCATE ${typed}`));

    it('stores what Postgres parses from the same text', async () => {
      const rows = [
        ['0AF3C7E2-52B1-4C3D-9E8F-ABCDEF012345', '2026-11-01T12:00:00.123456Z'],
        ['0af3c7e2-52b1-4c3d-9e8f-abcdef012346', '2026-11-01T13:00:00.5+01:00'],
        ['0af3c7e2-52b1-4c3d-9e8f-abcdef012347', '1999-12-31T23:59:59.9999995Z'],
        ['0af3c7e2-52b1-4c3d-9e8f-abcdef012348', null],
      ];
      await db.transaction((tx) =>
        copyRowsOnce(tx, typed, typedColumns, rows, async () => {
          throw new Error('every value here has a binary form');
        }),
      );
      const copied = await read();
      await db.query(`TRUNCATE ${typed}`);
      for (const [id, at] of rows) await db.query(`INSERT INTO ${typed} (id, at) VALUES ($1, $2)`, [id, at]);
      expect(copied).toEqual(await read());
      expect(copied).toHaveLength(4);
    });

    it('sends a batch holding a value with no binary form here to the fallback, copying nothing', async () => {
      let fellBack = false;
      await db.transaction((tx) =>
        copyRowsOnce(
          tx,
          typed,
          typedColumns,
          [
            ['0af3c7e2-52b1-4c3d-9e8f-abcdef012349', '2026-11-01T12:00:00Z'],
            ['0af3c7e2-52b1-4c3d-9e8f-abcdef01234a', '2026-11-01 12:00:00+00'],
          ],
          async () => {
            fellBack = true;
          },
        ),
      );
      expect(fellBack).toBe(true);
      expect(await read()).toEqual([]);
    });
  });
});
