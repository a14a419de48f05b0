import { Fleet, FleetOptions } from './domain/fleet';
import { prepareFreshness } from './freshness-phase';

const options: FleetOptions = {
  daemons: 3,
  batch: 10,
  events: 1_000,
  seed: 5,
  organizations: 2,
  eventIds: false,
  startMs: Date.UTC(2026, 0, 1),
};

const eventsOf = (body: Buffer) =>
  (JSON.parse(body.toString()) as { events: { agent_id?: string; session_id: string }[] }).events;

describe('the freshness phase’s prepared batches', () => {
  it('carry a marker, last in its batch, in every n-th batch and in no other', () => {
    const { batches, markers } = prepareFreshness(new Fleet(options).batches(), { markerEvery: 3, seed: 1 });
    expect(batches).toHaveLength(100);
    batches.forEach((batch, i) => {
      const events = eventsOf(batch.body);
      const markerCount = events.filter((e) => e.agent_id === 'bench-marker').length;
      if (i % 3 === 0) {
        expect(markerCount).toBe(1);
        expect(events).toHaveLength(11);
        expect(batch.size).toBe(11);
        expect(events[10].session_id).toBe(markers.get(batch));
      } else {
        expect(markerCount).toBe(0);
        expect(batch.size).toBe(10);
        expect(markers.has(batch)).toBe(false);
      }
    });
    expect(new Set(markers.values()).size).toBe(34);
  });

  it('stop at the first batch that reaches the items asked for, markers counted', () => {
    const { batches } = prepareFreshness(new Fleet(options).batches(), { markerEvery: 2, seed: 1, items: 50 });
    // 11 + 10 + 11 + 10 = 42, then 11 more reach 53.
    expect(batches.map((b) => b.size)).toEqual([11, 10, 11, 10, 11]);
  });

  it('pull no batch from the fleet past the one that reaches the items asked for', () => {
    let pulled = 0;
    const counted = function* () {
      for (const batch of new Fleet(options).batches()) {
        pulled++;
        yield batch;
      }
    };
    const { batches } = prepareFreshness(counted(), { markerEvery: 2, seed: 1, items: 50 });
    expect(batches).toHaveLength(5);
    expect(pulled).toBe(5);
  });

  it('draw the same marker sessions for the same seed', () => {
    const sessions = (seed: number) => [
      ...prepareFreshness(new Fleet(options).batches(), { markerEvery: 5, seed }).markers.values(),
    ];
    expect(sessions(7)).toEqual(sessions(7));
    expect(sessions(7)).not.toEqual(sessions(8));
  });
});
