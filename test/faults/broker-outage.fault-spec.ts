import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventIdFor } from '@agentwatch/ingest';
import { AppProcess, call, createOrganization, eventually, freePort, spawnApp, suiteEnv } from '@agentwatch/testing';

// Runs alone (npm test's "faults" phase): it stops the one local broker every other suite uses.
// Asynchronously: a blocked test process would add its own wait to the answer times it measures.
const run = promisify(execFile);
const kafka = async (command: 'start' | 'stop') => {
  try {
    await run(process.execPath, [path.resolve('scripts/kafka.mjs'), command], { timeout: 120_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`kafka ${command} failed: ${stdout}${stderr}`);
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  status: number;
  ids: string[];
  /** The instant every event of the batch carries. */
  at: string;
  ms: number;
  body: unknown;
}

describe('a 20-second broker outage during ingest', () => {
  // The apps run as their own processes, as in production: answer times are then the API's own.
  const env = suiteEnv('faults-outage', {
    KAFKA_PUBLISH_TIMEOUT_MS: '3000',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
  });
  const stack = { apiUrl: '', env };
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    const port = await freePort();
    stack.apiUrl = `http://127.0.0.1:${port}`;
    apps.push(spawnApp('cloud-api', { ...env, CLOUD_API_PORT: String(port) }));
    apps.push(spawnApp('projector', { ...env, PROJECTOR_PORT: '0' }));
    await eventually(
      () => call(`${stack.apiUrl}/ready`).catch(() => ({ status: 0 })),
      (answer) => answer.status === 200,
      { timeoutMs: 60_000, what: 'API ready' },
    );
  });

  afterAll(async () => {
    await kafka('start'); // whatever happened, leave the broker running
    await Promise.all(apps.map((app) => app.kill()));
  });

  it('answers 503 rather than hanging or lying, and every acknowledged event is queryable once the broker is back', async () => {
    const org = await createOrganization('outage', stack.env);
    const session = randomUUID();
    const outcomes: Outcome[] = [];
    let sending = true;
    let n = 0;
    const sender = (async () => {
      while (sending) {
        const ids = Array.from({ length: 10 }, () => `outage-${n++}`);
        const at = new Date().toISOString();
        const started = Date.now();
        const answer = await call(`${stack.apiUrl}/v1/events/ingest`, {
          method: 'POST',
          token: org.token,
          body: {
            events: ids.map((event_id) => ({
              event_id,
              action_type: 'FILE_READ',
              timestamp: at,
              session_id: session,
            })),
          },
        }).catch((error: Error) => ({ status: 0, body: error.message }));
        outcomes.push({ status: answer.status, ids, at, ms: Date.now() - started, body: answer.body });
        await pause(100);
      }
    })();

    await pause(3000);
    await kafka('stop');
    const stoppedAt = outcomes.length;
    await pause(20_000);
    await kafka('start');
    await pause(8000);
    sending = false;
    await sender;

    const accepted = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status === 503);
    expect(outcomes.every((o) => o.status === 200 || o.status === 503)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(o.body).toEqual({ error: expect.stringMatching(/unavailable/i) });
    // Not a hang: the publish timeout bounds every answer.
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(10_000);
    // Ingest resumed after the outage.
    expect(outcomes.slice(stoppedAt).some((o) => o.status === 200)).toBe(true);

    // Client event ids and their instants make the stored ids predictable.
    const acceptedIds = new Set(accepted.flatMap((o) => o.ids.map((id) => eventIdFor(org.orgId, id, o.at))));
    const seen = await eventually(
      async () => {
        const ids = new Set<string>();
        let cursor: string | null = null;
        do {
          const page: { body: Record<string, unknown> } = await call(
            `${stack.apiUrl}/v1/sessions/${session}/events?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
            { token: org.token },
          );
          for (const event of (page.body.events as { id: string }[]) ?? []) ids.add(event.id);
          cursor = (page.body.next_cursor as string | null) ?? null;
        } while (cursor);
        return ids;
      },
      (ids) => [...acceptedIds].every((id) => ids.has(id)),
      { timeoutMs: 120_000, intervalMs: 1000, what: 'every acknowledged event projected' },
    );
    // Refused batches may still have reached the log before the timeout, and their answer says so;
    // acknowledged ones must all be there, and one refused as never sent must not be.
    expect([...acceptedIds].filter((id) => !seen.has(id))).toEqual([]);
    const neverSent = refused.filter((o) => /nothing from this request was ingested/.test(JSON.stringify(o.body)));
    const storedAnyway = neverSent
      .flatMap((o) => o.ids.map((id) => eventIdFor(org.orgId, id, o.at)))
      .filter((id) => seen.has(id));
    expect(storedAnyway).toEqual([]);
    console.log(
      `broker outage: ${accepted.length} accepted, ${refused.length} refused ` +
        `(${neverSent.length} never sent, ${refused.length - neverSent.length} maybe stored)`,
    );
    const ready = await eventually(
      () => call(`${stack.apiUrl}/ready`),
      (r) => r.status === 200,
      { timeoutMs: 30_000 },
    );
    expect(ready.body).toMatchObject({ status: 'ready' });
  }, 300_000);
});
