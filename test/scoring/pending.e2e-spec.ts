import { randomUUID } from 'node:crypto';
import { call, createApiKey, createOrganization, eventually, RunningStack, startStack } from '@agentwatch/testing';
import { scoringApiConfigFromEnv } from '../../apps/scoring-api/src/config';
import { startScoringApi } from '../../apps/scoring-api/src/main';

describe('scoring API without a running worker', () => {
  let stack: RunningStack;
  let api: Awaited<ReturnType<typeof startScoringApi>>;

  beforeAll(async () => {
    stack = await startStack('e2e-scoring-pending', { SCORING_API_PORT: '0' });
    api = await startScoringApi(scoringApiConfigFromEnv(stack.env));
  });

  afterAll(async () => {
    await api?.app.close();
    await stack?.stop();
  });

  it('answers pending for an event that was received but not scored yet', async () => {
    const org = await createOrganization('pending org', stack.env);
    const key = await createApiKey(org.orgId, stack.env);
    const session = randomUUID();
    const ingested = await call(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: org.token,
      body: { events: [{ action_type: 'FILE_READ', timestamp: new Date().toISOString(), session_id: session }] },
    });
    expect(ingested.status).toBe(200);
    const { body } = await eventually(
      () => call<{ events: { id: string }[] }>(`${stack.apiUrl}/v1/sessions/${session}/events`, { token: org.token }),
      (a) => a.status === 200 && a.body.events.length === 1,
      { what: 'the event on the read model' },
    );
    const scoringUrl = api.url.replace('[::1]', '127.0.0.1');
    const detail = await call(`${scoringUrl}/scores/event/${body.events[0].id}`, { headers: { 'x-api-key': key } });
    expect(detail).toMatchObject({
      status: 200,
      body: { event_id: body.events[0].id, status: 'pending', score: null },
    });
    const health = await call(`${scoringUrl}/health/detailed`);
    expect(health.body).toMatchObject({ status: 'ok', llm_service: { status: 'not_configured', error: null } });
  });
});
