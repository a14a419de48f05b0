import { gunzipSync } from 'node:zlib';
import { Fleet, FleetOptions } from './domain/fleet';
import { prepareBatches } from './fleet-runner';

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
