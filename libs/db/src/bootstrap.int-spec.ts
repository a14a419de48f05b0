import { Client } from 'pg';
import { ensureAutovacuum } from './bootstrap';
import { databaseConfigFromEnv } from './database.config';

// Set-up against the real server: autovacuum (the source of planner statistics) must end up on.
describe('database set-up', () => {
  const { adminUrl } = databaseConfigFromEnv();

  const autovacuum = async () => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return (await client.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum;
    } finally {
      await client.end();
    }
  };

  const setAutovacuum = async (value: 'on' | 'off') => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(`ALTER SYSTEM SET autovacuum = ${value}`);
      await client.query('SELECT pg_reload_conf()');
    } finally {
      await client.end();
    }
  };

  // pg_reload_conf() signals the server; a new session sees the new value shortly after.
  const settled = async (expected: string) => {
    for (let i = 0; i < 50 && (await autovacuum()) !== expected; i++) await new Promise((r) => setTimeout(r, 100));
    return autovacuum();
  };

  afterAll(() => setAutovacuum('on'));

  it('turns autovacuum on when the server has it off, and leaves it on', async () => {
    await setAutovacuum('off');
    expect(await settled('off')).toBe('off');

    expect(await ensureAutovacuum(adminUrl)).toBe('turned-on');
    expect(await settled('on')).toBe('on');
    expect(await ensureAutovacuum(adminUrl)).toBe('on');
  });
});
