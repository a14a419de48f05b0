import { call, createOrganization, eventually, RunningStack, startStack } from '@agentwatch/testing';
import { Fleet } from './domain/fleet';
import { registerDaemons, sendBatches } from './fleet-runner';

// The simulator's traffic as the real cloud API takes it: machines registered with a deploy token,
// gzip'd mixed batches accepted whole, and every event projected.
describe('the fleet runner against the cloud API', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack('bench-fleet');
  });
  afterAll(() => stack?.stop());

  it('registers the daemons and has every gzip batch accepted and projected', async () => {
    const org = await createOrganization('fleet', stack.env);
    const fleet = new Fleet({
      daemons: 4,
      batch: 100,
      events: 1_200,
      seed: 5,
      organizations: 1,
      eventIds: true,
      startMs: Date.now() - 3_600_000,
    });
    const batches = [...fleet.batches()];
    const tokens = await registerDaemons(stack.apiUrl, fleet.daemons, [org.token]);
    const sent = await sendBatches(batches, { apiUrl: stack.apiUrl, tokens, concurrency: 4, gzip: true });
    expect(sent.statuses).toEqual({ '200': 12 });
    expect(sent.accepted).toBe(1_200);
    const events = batches.flatMap((b) => b.items).filter((i) => 'action_type' in i).length;
    await eventually(
      () => call<{ total: number }>(`${stack.apiUrl}/v1/events/stats`, { token: tokens[0] }),
      (answer) => answer.body.total === events,
      { what: `all ${events} events projected` },
    );
    const [root] = fleet.sessionsOf(0);
    const session = await call<{ id: string }>(`${stack.apiUrl}/v1/sessions/${root}`, { token: tokens[1] });
    expect(session.body.id).toBe(root);
  });

  it('hands each batch the API refused to the caller, with its status, so it can be sent again', async () => {
    const org = await createOrganization('fleet-refused', stack.env);
    const fleet = new Fleet({
      daemons: 2,
      batch: 50,
      events: 400,
      seed: 6,
      organizations: 1,
      eventIds: true,
      startMs: Date.now() - 3_600_000,
    });
    const batches = [...fleet.batches()];
    const [good] = await registerDaemons(stack.apiUrl, fleet.daemons.slice(0, 1), [org.token]);
    const refused: { daemon: number; status: number | string }[] = [];
    const sent = await sendBatches(batches, {
      apiUrl: stack.apiUrl,
      tokens: [good, 'svc_machine_not-a-token'],
      concurrency: 2,
      onRefused: (batch, status) => refused.push({ daemon: batch.daemon, status }),
    });
    const ofSecond = batches.filter((b) => b.daemon === 1);
    expect(ofSecond.length).toBeGreaterThan(0);
    expect(sent.statuses).toEqual({ '200': batches.length - ofSecond.length, '401': ofSecond.length });
    expect(refused).toEqual(ofSecond.map(() => ({ daemon: 1, status: 401 })));
  });
});
