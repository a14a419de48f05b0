import { databaseConfigFromEnv } from '@agentwatch/db';
import { DataSource, QueryFailedError } from 'typeorm';
import { prepared } from './prepared';

// A prepared statement must behave as its text does through TypeORM, and be parsed once per connection.
describe('prepared statements through TypeORM', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().projectorUrl }).initialize();
  });

  afterAll(async () => {
    await db?.destroy();
  });

  const SUM = prepared('SELECT sum(v)::int AS total, count(*)::int AS n FROM unnest($1::int[]) AS v');

  it('answers as the text does, with each call its own parameters', async () => {
    const runner = db.createQueryRunner();
    try {
      expect(await runner.query(SUM, [[1, 2, 3]])).toEqual([{ total: 6, n: 3 }]);
      expect(await runner.query(SUM, [[10, 20]])).toEqual([{ total: 30, n: 2 }]);
      expect(await runner.query(String(SUM), [[4]])).toEqual([{ total: 4, n: 1 }]);
    } finally {
      await runner.release();
    }
  });

  it('is prepared on the connection once, under one name for one text', async () => {
    const runner = db.createQueryRunner();
    try {
      await runner.query(SUM, [[1]]);
      await runner.query(SUM, [[2]]);
      await runner.query(prepared(String(SUM)), [[3]]);
      const statements: { name: string; statement: string }[] = await runner.query(
        'SELECT name, statement FROM pg_prepared_statements',
      );
      const named = statements.filter((s) => s.statement === String(SUM));
      expect(named).toHaveLength(1);
      expect(named[0].name).toMatch(/^aw_[0-9a-f]{24}$/);
      const other = prepared('SELECT 1 AS one');
      await runner.query(other, []);
      const names = (await runner.query('SELECT name FROM pg_prepared_statements')).map(
        (s: { name: string }) => s.name,
      );
      expect(names).toEqual(expect.arrayContaining([named[0].name]));
      expect(new Set(names).size).toBe(names.length);
      expect(names).toHaveLength(2);
    } finally {
      await runner.release();
    }
  });

  it('fails as the text would: a QueryFailedError with the database error and the SQL text', async () => {
    const broken = prepared('SELECT 1 / $1::int AS quotient');
    const error = await db.query(broken, [0]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).message).toBe('division by zero');
    expect(String((error as QueryFailedError).query)).toBe('SELECT 1 / $1::int AS quotient');
    expect(await db.query(broken, [4])).toEqual([{ quotient: 0 }]);
  });
});
