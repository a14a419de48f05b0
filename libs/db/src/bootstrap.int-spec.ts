import { Client } from 'pg';
import { ensureAutovacuum, ensureRoles } from './bootstrap';
import { databaseConfigFromEnv, ROLE_NAMES } from './database.config';

// Set-up against the real server: autovacuum (the source of planner statistics) must end up on.
describe('database set-up', () => {
  const { adminUrl, rolePassword } = databaseConfigFromEnv();

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

  it('aligns the roles from many sessions at once, each of them succeeding', async () => {
    // The server's `postgres` database, where every caller aligns the roles.
    const serverUrl = new URL(adminUrl);
    serverUrl.pathname = '/postgres';
    const clients = Array.from({ length: 8 }, () => new Client({ connectionString: serverUrl.toString() }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      // Unlocked, sessions altering one role together were refused with "tuple concurrently updated".
      const outcomes = await Promise.allSettled(clients.map((c) => ensureRoles(c, rolePassword)));
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      const { rows } = await clients[0].query<{ rolname: string }>(
        'SELECT rolname FROM pg_roles WHERE rolname = ANY($1) ORDER BY rolname',
        [Object.values(ROLE_NAMES)],
      );
      expect(rows.map((r) => r.rolname)).toEqual([...Object.values(ROLE_NAMES)].sort());
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('turns autovacuum on when the server has it off, and leaves it on', async () => {
    await setAutovacuum('off');
    expect(await settled('off')).toBe('off');

    expect(await ensureAutovacuum(adminUrl)).toBe('turned-on');
    expect(await settled('on')).toBe('on');
    expect(await ensureAutovacuum(adminUrl)).toBe('on');
  });
});
