import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { bootstrapDatabase, databaseConfigFromEnv, dropTestDatabase } from '@agentwatch/db';
import { call, createOrganization, eventually, RunningScoringStack, startScoringStack } from '@agentwatch/testing';
import { Client } from 'pg';

// What a replay rebuilds, and the scoring worker's risk counters, which it must leave as they are.
const REBUILT = ['events', 'sessions', 'agents', 'event_hourly_counts'];
const TABLES = [...REBUILT, 'event_hourly_risk'];
// The hourly counters mean their sums over slots (which connection counted is not part of the model).
const ROWS: Record<string, string> = {
  event_hourly_counts: `SELECT org_id, hour, action_type, decision, tool_name, sum(count) AS count
                          FROM event_hourly_counts GROUP BY 1, 2, 3, 4, 5 HAVING sum(count) <> 0`,
  event_hourly_risk: `SELECT org_id, hour, risk_level, sum(count) AS count
                        FROM event_hourly_risk GROUP BY 1, 2, 3 HAVING sum(count) <> 0`,
};

describe('replay: rebuilding every projection from offset 0', () => {
  // A database of its own: a rebuild swaps whole tables, which suites running beside it must not see.
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/agentwatch');
  url.pathname = `/agentwatch_test_${process.env.AGENTWATCH_TEST_RUN ?? Date.now().toString(36)}_replay`;
  const databaseUrl = url.toString();
  let stack: RunningScoringStack;
  let db: Client;

  const fingerprint = async () => {
    const result: Record<string, unknown> = {};
    for (const table of TABLES) {
      const [row] = (
        await db.query(
          `SELECT count(*)::int AS rows, md5(string_agg(t::text, '|' ORDER BY t::text)) AS hash
             FROM (${ROWS[table] ?? `SELECT * FROM ${table}`}) t`,
        )
      ).rows;
      result[table] = row;
    }
    return result;
  };
  // Every event projected and scored, and nothing changed since the last look.
  let previous = '';
  const settled = (events: number, what: string) =>
    eventually(
      async () => {
        const current = await fingerprint();
        const [{ unscored }] = (
          await db.query(
            `SELECT count(*)::int AS unscored FROM events e
              WHERE NOT EXISTS (SELECT 1 FROM event_scores s WHERE s.org_id = e.org_id AND s.event_id = e.id)`,
          )
        ).rows;
        const stable = JSON.stringify(current) === previous;
        previous = JSON.stringify(current);
        return { current, stable, unscored };
      },
      ({ current, stable, unscored }) =>
        stable && unscored === 0 && (current.events as { rows: number }).rows === events,
      { what, timeoutMs: 60_000, intervalMs: 1500 },
    );
  const shape = async () =>
    (
      await db.query(
        `SELECT tablename, array_agg(indexname ORDER BY indexname) AS indexes,
                (SELECT array_agg(policyname ORDER BY policyname) FROM pg_policies p WHERE p.tablename = i.tablename AND p.schemaname = 'public') AS policies,
                (SELECT relforcerowsecurity FROM pg_class WHERE relname = i.tablename AND relnamespace = 'public'::regnamespace) AS forced
           FROM pg_indexes i WHERE schemaname = 'public' AND tablename = ANY($1) GROUP BY tablename ORDER BY tablename`,
        [TABLES],
      )
    ).rows;

  beforeAll(async () => {
    await bootstrapDatabase(databaseConfigFromEnv({ ...process.env, DATABASE_URL: databaseUrl }));
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    // The scoring worker runs too: the events routes join its scores, and its risk counters must come
    // out of a rebuild of the events untouched.
    stack = await startScoringStack('replay', { DATABASE_URL: databaseUrl, LLM_URL: '' });
  });

  afterAll(async () => {
    await stack?.stop();
    await db?.end();
    await dropTestDatabase(databaseUrl, url.pathname.slice(1));
  });

  it('yields read models identical, row for row, to the ones built live, and swaps them in whole', async () => {
    const org = await createOrganization('replayed', stack.env);
    const sessions = Array.from({ length: 12 }, () => randomUUID());
    for (const [i, session] of sessions.entries()) {
      const parent = i > 0 && i % 3 !== 0 ? sessions[i - (i % 3)] : null;
      await call(`${stack.apiUrl}/v1/sessions/ingest`, {
        method: 'POST',
        token: org.token,
        body: {
          session_id: session,
          state: 'active',
          timestamp: new Date(Date.UTC(2026, 5, 1, 10, i)).toISOString(),
          platform: `p${i % 2}`,
          signing_id: `s${i}`,
          parent_id: parent,
        },
      });
      if (i % 4 === 0) {
        await call(`${stack.apiUrl}/v1/sessions/ingest`, {
          method: 'POST',
          token: org.token,
          body: { session_id: session, state: 'ended', timestamp: new Date(Date.UTC(2026, 5, 1, 11, i)).toISOString() },
        });
      }
    }
    for (let batch = 0; batch < 6; batch++) {
      const events = Array.from({ length: 200 }, (_, i) => ({
        action_type: (['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'] as const)[
          (batch + i) % 5
        ],
        timestamp: new Date(Date.UTC(2026, 5, 1, 10, 0, 0, batch * 1000 + i)).toISOString(),
        session_id: sessions[(batch * 200 + i) % sessions.length],
        agent_id: `agent-${i % 7}`,
        tool_name: `tool-${i % 11}`,
        arguments: [`/tmp/${batch}/${i}`],
      }));
      expect(
        (await call(`${stack.apiUrl}/v1/events/ingest`, { method: 'POST', token: org.token, body: { events } })).status,
      ).toBe(200);
    }
    // Projections advance on their own (the scoring worker too): wait until all have stopped changing.
    const { current: live } = await settled(1200, 'live projections complete, scored and stable');
    const liveShape = await shape();

    const replay = spawnSync(
      process.execPath,
      // Two processes share the partitions out: the read models come out the same as from one.
      [path.resolve('dist/apps/cli/src/main.js'), 'replay', '--projection', 'all', '--workers', '2'],
      {
        env: stack.env,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect({ status: replay.status, stderr: replay.stderr.slice(-2000) }).toEqual({
      status: 0,
      stderr: expect.stringContaining('swapped in'),
    });
    // Each record applied exactly once, by one process or the other (each counts what it committed).
    const [, applied, first, second] = /(\d+) records in .*, 2 processes: (\d+) \+ (\d+)\)/.exec(replay.stderr) ?? [];
    expect(Number(first) + Number(second)).toBe(Number(applied));
    expect(Number(applied)).toBeGreaterThan(0);

    expect(await fingerprint()).toEqual(live);
    expect(await shape()).toEqual(liveShape);
    const schemas = await db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rebuild_%'`);
    expect(schemas.rows).toEqual([]);
    // The rebuilt tables come with planner statistics (ANALYZE before the swap, not autovacuum's).
    const analyzed = await db.query(
      `SELECT relname FROM pg_stat_user_tables
        WHERE schemaname = 'public' AND relname = ANY($1) AND last_analyze IS NOT NULL
        ORDER BY relname`,
      [REBUILT],
    );
    expect(analyzed.rows.map((r) => r.relname)).toEqual(['agents', 'event_hourly_counts', 'events', 'sessions']);

    // The API still reads through row-level security, and the live projector carries on into the new tables.
    const session = sessions[0];
    expect((await call(`${stack.apiUrl}/v1/sessions/${session}`, { token: org.token })).status).toBe(200);
    await call(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: org.token,
      body: {
        events: [
          {
            action_type: 'FILE_READ',
            timestamp: new Date().toISOString(),
            session_id: session,
            tool_name: 'after-replay',
          },
        ],
      },
    });
    await eventually(
      () => call(`${stack.apiUrl}/v1/events?tool_name=after-replay`, { token: org.token }),
      (answer) => answer.status === 200 && (answer.body.events as unknown[]).length === 1,
      { what: 'event projected after the swap' },
    );
    const [{ count }] = (await db.query('SELECT count(*)::int AS count FROM events')).rows;
    expect(count).toBe(1201);
  });

  // The worker is killed (SIGKILL) once it has booted, before it reports it (this process is setting
  // the rebuild up meanwhile), or once its consumers run, before it reports them running.
  it.each(['rebuild-worker.booted', 'rebuild-worker.consuming'])(
    'fails whole when a worker process dies (%s), leaving the live read models and no copies behind',
    async (point) => {
      const { current: before } = await settled(1201, 'the event after the first replay scored');
      const replay = spawnSync(
        process.execPath,
        [path.resolve('dist/apps/cli/src/main.js'), 'replay', '--projection', 'all', '--workers', '2'],
        { env: { ...stack.env, AGENTWATCH_FAILPOINT: point }, encoding: 'utf8', timeout: 120_000 },
      );
      expect(replay.status).not.toBe(0);
      expect(replay.stderr).toContain('a rebuild worker exited (SIGKILL) before it was stopped');
      expect(await fingerprint()).toEqual(before);
      const schemas = await db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rebuild_%'`);
      expect(schemas.rows).toEqual([]);
    },
  );

  it('rebuilds one projection alone while the projections sharing its consumer carry on', async () => {
    const org = await createOrganization('replayed alone', stack.env);
    // The event ingested after the first replay is scored too before the picture is taken.
    const { current: before } = await settled(1201, 'the event after the first replay scored');
    const replay = spawnSync(
      process.execPath,
      [path.resolve('dist/apps/cli/src/main.js'), 'replay', '--projection', 'events', '--workers', '1'],
      { env: stack.env, encoding: 'utf8', timeout: 120_000 },
    );
    expect({ status: replay.status, stderr: replay.stderr.slice(-2000) }).toEqual({
      status: 0,
      stderr: expect.stringContaining('swapped in'),
    });
    // The events alone: the scores live in event_scores, which the events routes join.
    expect(replay.stderr).toMatch(/rebuilt events: .*, 1 process\)/);
    expect(await fingerprint()).toEqual(before);

    // The live consumer re-reads from the events checkpoint the swap handed it, the lowest of the three;
    // sessions and agents skip what they already hold, and all three end at the topic's end.
    const session = randomUUID();
    const ingested = await call(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: org.token,
      body: {
        events: [
          { action_type: 'FILE_READ', timestamp: new Date().toISOString(), session_id: session, agent_id: 'solo' },
        ],
      },
    });
    expect(ingested.status).toBe(200);
    const prefix = stack.env.KAFKA_TOPIC_PREFIX ?? '';
    const checkpoints = async () =>
      (
        await db.query(
          `SELECT consumer_group, sum(next_offset)::int AS next FROM projection_checkpoints
            WHERE topic = $1 AND consumer_group LIKE $2 GROUP BY consumer_group ORDER BY consumer_group`,
          [`${prefix}ingest.events.v1`, `${prefix}projector.%`],
        )
      ).rows as { consumer_group: string; next: number }[];
    const done = await eventually(checkpoints, (rows) => rows.length === 3 && rows.every((r) => r.next === 1202), {
      what: 'events, sessions and agents checkpoints at the end of the topic',
    });
    expect(done.map((r) => r.consumer_group.split('.').pop())).toEqual(['agents', 'events', 'sessions']);
    const counts = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM events) AS events,
                (SELECT count(*)::int FROM sessions WHERE id = $1) AS sessions,
                (SELECT count(*)::int FROM agents WHERE id = 'solo') AS agents`,
        [session],
      )
    ).rows[0];
    expect(counts).toEqual({ events: 1202, sessions: 1, agents: 1 });
  });
});
