import { AsyncResource } from 'node:async_hooks';
import { call, createOrganization, eventually, RunningStack, startStack } from '@agentwatch/testing';

// Every app's boot replaces Node 20's costly AsyncResource#bind (docs/adr/0020-async-resource-bind.md).
// Fastify binds its body parser's callback and Nest its interceptors' handlers on each request: an
// ingest request, which has both (the rate limit is an interceptor), still goes through and is stored.
describe('apps booted with AsyncResource#bind as current Node has it', () => {
  let stack: RunningStack;

  beforeAll(async () => {
    stack = await startStack('e2e-async-resource-bind');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('bind no longer attaches the deprecated property once an app has booted', () => {
    expect('asyncResource' in new AsyncResource('after-boot').bind(() => 0)).toBe(false);
    expect('asyncResource' in AsyncResource.bind(() => 0)).toBe(false);
  });

  it('serves an ingest request through the body parser and the rate-limit interceptor, and stores its event', async () => {
    const org = await createOrganization('async-resource-bind', stack.env);
    const timestamp = new Date().toISOString();
    const ingest = await call(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: org.token,
      body: { events: [{ action_type: 'FILE_READ', tool_name: 'Read', timestamp }] },
    });
    expect(ingest.status).toBe(200);
    expect(ingest.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    const listed = await eventually(
      () =>
        call<{ events: { action_type: string; timestamp: string }[] }>(`${stack.apiUrl}/v1/events`, {
          token: org.token,
        }),
      (answer) => answer.status === 200 && answer.body.events.length === 1,
      { what: 'the ingested event listed' },
    );
    expect(listed.body.events[0]).toMatchObject({ action_type: 'FILE_READ', timestamp });
  });
});
