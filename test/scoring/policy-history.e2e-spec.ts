import { randomUUID } from 'node:crypto';
import { TOPICS } from '@agentwatch/contracts';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import {
  call,
  createApiKey,
  createOrganization,
  eventually,
  RunningScoringStack,
  startScoringStack,
} from '@agentwatch/testing';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Body = Record<string, any>;

const EMPTY = {
  sensitive_fields: [],
  allowed_tools: [],
  blocked_actions: [],
  custom_rules: {},
  allowed_action_patterns: [],
  blocked_action_patterns: [],
  sensitive_classifications: [],
};

describe('policy history and dry-run validation (over HTTP)', () => {
  let stack: RunningScoringStack;

  const scoring = (
    path: string,
    key: string | undefined,
    init: { method?: string; body?: unknown; raw?: string } = {},
  ) => call<Body>(`${stack.scoringUrl}${path}`, { ...init, headers: key ? { 'x-api-key': key } : {} });
  const customer = async (name: string) => {
    const org = await createOrganization(name, stack.env);
    return { id: org.orgId, key: await createApiKey(org.orgId, stack.env) };
  };
  /** The organization's records on scoring.policies.v1, read until `count` arrived. */
  const policyChanges = async (orgId: string, count: number) => {
    const settings = kafkaSettingsFromEnv('policy-history-reader', stack.env);
    const consumer = createKafka(settings).consumer({ groupId: `${settings.prefix}history-${randomUUID()}` });
    const changes: Body[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: settings.prefix + TOPICS.scoringPolicies.name, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.headers?.org_id?.toString() === orgId) changes.push(JSON.parse(message.value!.toString()));
        },
      });
      await eventually(
        async () => changes.length,
        (n) => n >= count,
        { what: `${count} policy changes` },
      );
    } finally {
      await consumer.disconnect();
    }
    return changes;
  };

  beforeAll(async () => {
    stack = await startScoringStack('e2e-policy-history');
  });

  afterAll(() => stack?.stop());

  it('lists every saved version newest first, for the key’s own customer only', async () => {
    const [mine, other] = await Promise.all([customer('history org'), customer('other history org')]);
    const versions = (key: string, id = mine.id) => scoring(`/policies/${id}/versions`, key);
    expect(await versions(mine.key)).toMatchObject({ status: 200, body: { versions: [] } });

    const saved = [
      await scoring(`/policies/${mine.id}`, mine.key, { method: 'POST', body: { allowed_tools: ['git'] } }),
      await scoring(`/policies/${mine.id}`, mine.key, { method: 'PUT', body: { sensitive_fields: ['ssn'] } }),
      await scoring(`/policies/${mine.id}`, mine.key, {
        method: 'PUT',
        body: { custom_rules: { r1: { condition: 'tool == "curl"', score_impact: 20, description: 'curl' } } },
      }),
    ];
    expect(saved.map((a) => a.status)).toEqual([201, 200, 200]);
    const listed = await versions(mine.key);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      versions: [...saved].reverse().map((a) => ({
        version: a.body.version,
        policies: a.body.policies,
        updated_at: a.body.updated_at,
      })),
    });
    expect(listed.body.versions.map((v: Body) => v.version)).toEqual([3, 2, 1]);
    expect(listed.body.versions[2].policies).toEqual({ ...EMPTY, allowed_tools: ['git'] });

    expect(await versions(other.key)).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    expect(await versions(other.key, other.id)).toMatchObject({ status: 200, body: { versions: [] } });
    expect(await versions(mine.key, randomUUID())).toMatchObject({
      status: 404,
      body: { error: 'Customer not found' },
    });
    expect(await scoring(`/policies/${mine.id}/versions`, undefined)).toMatchObject({ status: 401 });
  });

  it('validates a body exactly as PUT judges it, storing and publishing nothing', async () => {
    const [mine, other] = await Promise.all([customer('validated org'), customer('other validated org')]);
    const refused: { body?: unknown; raw?: string }[] = [
      { body: { blocked_action_patterns: ['file:*'] } },
      { body: { custom_rules: { r1: { condition: 'tool ==', score_impact: 5, description: '' } } } },
      { body: { custom_rules: { r1: { condition: 'true', score_impact: 101, description: '' } } } },
      { body: { custom_rules: { 'bad id!': { condition: 'true', score_impact: 1, description: '' } } } },
      { body: { allowed_tools: ['git'], colour: 'blue' } },
      { body: { sensitive_fields: 'ssn' } },
      { body: [] },
      { raw: '{"open' },
    ];
    for (const request of refused) {
      const validated = await scoring(`/policies/${mine.id}/validate`, mine.key, { method: 'POST', ...request });
      const put = await scoring(`/policies/${mine.id}`, mine.key, { method: 'PUT', ...request });
      expect(validated.status).toBeGreaterThanOrEqual(400);
      expect({ request, status: validated.status, body: validated.body }).toEqual({
        request,
        status: put.status,
        body: put.body,
      });
    }
    const valid = {
      blocked_action_patterns: ['network:*:connect'],
      custom_rules: { r1: { condition: 'tool == "curl"', score_impact: 100, description: 'curl' } },
    };
    const foreign = await scoring(`/policies/${other.id}/validate`, mine.key, { method: 'POST', body: valid });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    expect(foreign.body).toEqual(
      (await scoring(`/policies/${other.id}`, mine.key, { method: 'PUT', body: valid })).body,
    );
    expect(await scoring(`/policies/${mine.id}/validate`, undefined, { method: 'POST', body: valid })).toMatchObject({
      status: 401,
    });

    for (let i = 0; i < 3; i += 1) {
      expect(await scoring(`/policies/${mine.id}/validate`, mine.key, { method: 'POST', body: valid })).toEqual(
        expect.objectContaining({ status: 200, body: { valid: true } }),
      );
    }
    expect(await scoring(`/policies/${mine.id}`, mine.key)).toMatchObject({ status: 404 });
    expect((await scoring(`/policies/${mine.id}/versions`, mine.key)).body).toEqual({ versions: [] });

    // The first record of the organization on the topic is the PUT that follows: a validation
    // before it, on the same key and so the same partition, would have come first.
    const put = await scoring(`/policies/${mine.id}`, mine.key, { method: 'PUT', body: valid });
    expect(put).toMatchObject({ status: 200, body: { version: 1 } });
    const [first] = await policyChanges(mine.id, 1);
    expect(first).toMatchObject({ org_id: mine.id, version: 1, changed_at: put.body.updated_at });
  });
});
