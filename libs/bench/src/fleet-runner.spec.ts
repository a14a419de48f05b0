import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { Fleet, FleetOptions } from './domain/fleet';
import { PreparedBatch, prepareBatches, sendBatches } from './fleet-runner';

const options: FleetOptions = {
  daemons: 3,
  batch: 40,
  events: 200,
  seed: 11,
  organizations: 2,
  eventIds: true,
  startMs: Date.UTC(2026, 0, 1),
};

describe('prepared batches', () => {
  it('carry the very bodies the lazy fleet would send, for the same seed', () => {
    const lazy = [...new Fleet(options).batches()];
    const prepared = prepareBatches(new Fleet(options).batches());
    expect(prepared.map((b) => [b.daemon, b.size])).toEqual(lazy.map((b) => [b.daemon, b.items.length]));
    expect(prepared.map((b) => b.body.toString())).toEqual(lazy.map((b) => JSON.stringify({ events: b.items })));
  });

  it('are gzip’d once when asked', () => {
    const [first] = prepareBatches(new Fleet(options).batches(40), true);
    expect(first.gzip).toBe(true);
    expect(JSON.parse(gunzipSync(first.body).toString()).events).toHaveLength(40);
  });
});

/** Answers 200 to anything and closes a connection idle for `keepAliveMs`: in a process of its own, as the API is. */
async function keepAliveServer(keepAliveMs: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const server = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => res.end('{}')); });
       server.keepAliveTimeout = ${keepAliveMs};
       server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${port.toString().trim()}`, stop: () => child.kill() };
}

describe('sending a phase after the load generator was busy', () => {
  const KEEP_ALIVE_MS = 3000;
  const batches = (): PreparedBatch[] =>
    Array.from({ length: 8 }, () => ({ daemon: 0, size: 1, body: Buffer.from('{"events":[]}'), gzip: false }));
  let server: Awaited<ReturnType<typeof keepAliveServer>>;
  beforeAll(async () => {
    server = await keepAliveServer(KEEP_ALIVE_MS);
  });
  afterAll(() => server.stop());

  it('gets every answer although the server closed the previous phase’s idle connections meanwhile', async () => {
    const send = () => sendBatches(batches(), { apiUrl: server.url, tokens: ['token'], concurrency: 8 });
    expect((await send()).statuses).toEqual({ 200: 8 });
    // Busy past the server's keep-alive, as when building a phase's bodies: its closes arrive unread.
    const until = Date.now() + KEEP_ALIVE_MS + 2000;
    while (Date.now() < until);
    expect((await send()).statuses).toEqual({ 200: 8 });
  }, 20_000);
});
