import { eventIngestBody, eventIngestItem, sessionIngestRecord } from '@agentwatch/contracts';
import { Fleet, FleetOptions } from './fleet';

const options: FleetOptions = {
  daemons: 7,
  batch: 50,
  events: 5_000,
  seed: 42,
  organizations: 3,
  eventIds: true,
  startMs: Date.parse('2026-01-01T00:00:00Z'),
};
const traffic = (o: FleetOptions) => [...new Fleet(o).batches()];
const items = (o: FleetOptions) => traffic(o).flatMap((b) => b.items);

describe('the daemon-fleet simulator', () => {
  it('sends identical batches for the same seed', () => {
    expect(JSON.stringify(traffic(options))).toBe(JSON.stringify(traffic(options)));
    expect(new Fleet(options).daemons).toEqual(new Fleet(options).daemons);
  });

  it('sends different traffic for a different seed', () => {
    expect(JSON.stringify(traffic({ ...options, seed: 43 }))).not.toBe(JSON.stringify(traffic(options)));
  });

  it('sends exactly the requested items in batches of at most B, daemons taking turns', () => {
    const batches = traffic(options);
    expect(batches.reduce((n, b) => n + b.items.length, 0)).toBe(5_000);
    expect(batches.every((b) => b.items.length <= 50)).toBe(true);
    expect(batches.slice(0, 7).map((b) => b.daemon)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('produces items every one of which the contracts accept', () => {
    for (const item of items(options)) {
      const schema = 'state' in item ? sessionIngestRecord : eventIngestItem;
      expect(schema.safeParse(item).error?.issues).toBeUndefined();
    }
    const eventsOnly = items(options).filter((i) => 'action_type' in i);
    expect(eventIngestBody.safeParse({ events: eventsOnly }).success).toBe(true);
  });

  it('mixes the five action types, sensitive paths, hosts and all lifecycle states with sub-sessions', () => {
    const all = items({ ...options, events: 40_000 });
    const events = all.flatMap((i) => ('action_type' in i ? [i] : []));
    const sessions = all.flatMap((i) => ('state' in i ? [i] : []));
    const share = (type: string) => events.filter((e) => e.action_type === type).length / events.length;
    expect(share('FILE_READ')).toBeGreaterThan(0.25);
    expect(share('FILE_DELETE')).toBeGreaterThan(0.02);
    for (const type of ['PROCESS_EXEC', 'FILE_WRITE', 'NETWORK_CONNECT']) expect(share(type)).toBeGreaterThan(0.05);
    const args = events.flatMap((e) => e.arguments ?? []);
    for (const path of ['~/.ssh/id_rsa', '.env', '/etc/shadow']) expect(args).toContain(path);
    expect(args).toContain('api.github.com:443');
    expect(new Set(sessions.map((s) => s.state))).toEqual(new Set(['active', 'idle', 'ended']));
    const children = sessions.filter((s) => s.parent_id);
    expect(children.length).toBeGreaterThan(0);
    const roots = new Set(sessions.filter((s) => !s.parent_id).map((s) => s.session_id));
    expect(children.every((c) => roots.has(c.parent_id as string))).toBe(true);
  });

  it('attaches unique event_ids only when asked', () => {
    const ids = items(options).flatMap((i) => ('event_id' in i && i.event_id ? [i.event_id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(4_000);
    expect(items({ ...options, eventIds: false }).some((i) => 'event_id' in i)).toBe(false);
  });
});
