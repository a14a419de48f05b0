import { randomUUID } from 'node:crypto';
import { TOPICS } from '@agentwatch/contracts';
import { eventIdFor } from '@agentwatch/ingest';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import {
  call,
  createApiKey,
  createOrganization,
  eventually,
  RunningScoringStack,
  startScoringStack,
  TestOrganization,
} from '@agentwatch/testing';
import { FakeLlm, startFakeLlm } from './fake-llm';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field by the assertions
type Body = Record<string, any>;

const at = (second: number) => new Date(Date.UTC(2026, 10, 1, 12, 0, second)).toISOString();

describe('scoring: policies → ingest → worker → score reads (over HTTP)', () => {
  let stack: RunningScoringStack;
  let llm: FakeLlm;
  let org: TestOrganization & { key: string };
  let other: TestOrganization & { key: string };

  const scoring = (
    path: string,
    key: string | undefined,
    init: { method?: string; body?: unknown; raw?: string } = {},
  ) => call<Body>(`${stack.scoringUrl}${path}`, { ...init, headers: key ? { 'x-api-key': key } : {} });
  const ingest = async (token: string, events: Body[]) => {
    const answer = await call(`${stack.apiUrl}/v1/events/ingest`, { method: 'POST', token, body: { events } });
    expect(answer).toMatchObject({ status: 200, body: { ingested: events.length } });
  };
  const idsOf = async (token: string, session: string, count: number) => {
    const answer = await eventually(
      () => call<{ events: Body[] }>(`${stack.apiUrl}/v1/sessions/${session}/events`, { token }),
      (a) => a.status === 200 && a.body.events.length >= count,
      { what: `${count} events of session ${session}` },
    );
    return answer.body.events;
  };
  const scored = (key: string, eventId: string) =>
    eventually(
      () => scoring(`/scores/event/${eventId}`, key),
      (a) => a.status === 200 && a.body.status !== 'pending',
      { what: `score of ${eventId}` },
    ).then((a) => a.body);
  /** Reads `scoring.policies.v1` from the beginning until `count` changes of the organization arrived. */
  const readPolicyChanges = async (orgId: string, count: number) => {
    const prefix = stack.env.KAFKA_TOPIC_PREFIX ?? '';
    const kafka = createKafka(kafkaSettingsFromEnv('policy-reader', stack.env));
    const consumer = kafka.consumer({ groupId: `${prefix}policy-reader-${randomUUID()}` });
    const changes: Body[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: prefix + TOPICS.scoringPolicies.name, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.headers?.org_id?.toString() === orgId) changes.push(JSON.parse(message.value!.toString()));
        },
      });
      await eventually(
        async () => changes.length,
        (n) => n >= count,
        { what: `${count} policy changes on the topic` },
      );
    } finally {
      await consumer.disconnect();
    }
    return changes.sort((a, b) => a.version - b.version);
  };
  const withOrg = async (name: string) => {
    const created = await createOrganization(name, stack.env);
    return { ...created, key: await createApiKey(created.orgId, stack.env) };
  };

  beforeAll(async () => {
    llm = await startFakeLlm();
    stack = await startScoringStack('e2e-scoring', {
      LLM_URL: llm.url,
      LLM_TIMEOUT_MS: '700',
      LLM_COOLDOWN_MS: '0',
    });
    [org, other] = await Promise.all([withOrg('scored org'), withOrg('other org')]);
  });

  afterAll(async () => {
    await stack?.stop();
    await llm?.close();
  });

  it('requires an API key bound to the customer on every route but /health/detailed', async () => {
    const id = org.orgId;
    expect(await scoring(`/policies/${id}`, undefined)).toMatchObject({
      status: 401,
      body: { error: 'X-API-Key header required' },
    });
    expect(await scoring(`/scores/${id}`, 'aw_sk_not-a-real-key')).toMatchObject({
      status: 401,
      body: { error: 'Invalid API key' },
    });
    expect(await scoring(`/scores/${id}`, org.token)).toMatchObject({ status: 401 });
    for (const path of [`/policies/${id}`, `/scores/${id}`]) {
      expect(await scoring(path, other.key)).toMatchObject({ status: 404, body: { error: 'Customer not found' } });
    }
    expect(
      await scoring(`/policies/${id}`, other.key, { method: 'POST', body: { sensitive_fields: ['x'] } }),
    ).toMatchObject({ status: 404 });
    const health = await scoring('/health/detailed', undefined);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      relational_db: { status: 'ok', error: null },
      cache: { status: 'ok' },
      graph_db: { status: 'ok' },
      llm_service: { status: 'ok' },
    });
    expect(typeof health.body.relational_db.latency_ms).toBe('number');
    expect((await call(`${stack.scoringUrl}/openapi.json`)).body).toMatchObject({
      paths: { '/policies/{customer_id}': {}, '/justification': {} },
    });
  });

  it('validates policies: 422 with the field path, 400 on malformed JSON, 409 on a second POST', async () => {
    const fresh = await withOrg('validation org');
    const post = (body: unknown) => scoring(`/policies/${fresh.orgId}`, fresh.key, { method: 'POST', body });
    const invalid = await post({ blocked_action_patterns: ['file:*'] });
    expect(invalid).toMatchObject({
      status: 422,
      body: { error: 'Invalid policy', details: [{ path: 'blocked_action_patterns.0' }] },
    });
    const badCel = await post({ custom_rules: { r1: { condition: 'tool ==', score_impact: 5, description: '' } } });
    expect(badCel).toMatchObject({ status: 422, body: { details: [{ path: 'custom_rules.r1.condition' }] } });
    const outOfBounds = await post({ custom_rules: { r1: { condition: 'true', score_impact: 500, description: '' } } });
    expect(outOfBounds).toMatchObject({ status: 422, body: { details: [{ path: 'custom_rules.r1.score_impact' }] } });
    expect(await scoring(`/policies/${fresh.orgId}`, fresh.key, { method: 'POST', raw: '{"open' })).toMatchObject({
      status: 400,
      body: { error: 'Malformed JSON body' },
    });
    expect(await scoring(`/policies/${fresh.orgId}`, fresh.key)).toMatchObject({ status: 404 });

    const created = await post({ sensitive_fields: ['ssn'], allowed_tools: ['read_file'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      customer_id: fresh.orgId,
      version: 1,
      policies: {
        sensitive_fields: ['ssn'],
        allowed_tools: ['read_file'],
        blocked_actions: [],
        custom_rules: {},
        allowed_action_patterns: [],
        blocked_action_patterns: [],
        sensitive_classifications: [],
      },
    });
    expect(Date.parse(created.body.updated_at)).not.toBeNaN();
    expect(await post({})).toMatchObject({ status: 409, body: { error: expect.stringContaining('already exists') } });

    // PUT is a full replacement: what it omits is reset.
    const replaced = await scoring(`/policies/${fresh.orgId}`, fresh.key, {
      method: 'PUT',
      body: { blocked_actions: ['process:rm:exec'] },
    });
    expect(replaced).toMatchObject({
      status: 200,
      body: { version: 2, policies: { sensitive_fields: [], allowed_tools: [], blocked_actions: ['process:rm:exec'] } },
    });
    expect(await scoring(`/policies/${fresh.orgId}`, fresh.key)).toMatchObject({ status: 200, body: replaced.body });
  });

  it('scores ingested events, lists them, justifies them, and the events routes show each risk_score', async () => {
    const policy = {
      blocked_action_patterns: ['file:*:delete'],
      allowed_action_patterns: ['file:/repo/*:read'],
      sensitive_fields: ['ssn'],
      custom_rules: {
        force_push: {
          condition: 'tool == "git" && "--force" in arguments',
          score_impact: 30,
          description: 'force push',
        },
      },
    };
    expect((await scoring(`/policies/${org.orgId}`, org.key, { method: 'POST', body: policy })).status).toBe(201);
    const session = randomUUID();
    await ingest(org.token, [
      {
        action_type: 'FILE_READ',
        timestamp: at(1),
        tool_name: 'cat',
        arguments: ['/repo/readme.md'],
        session_id: session,
      },
      {
        action_type: 'FILE_DELETE',
        timestamp: at(2),
        tool_name: 'rm',
        arguments: ['/repo/build/a.o'],
        session_id: session,
      },
      {
        action_type: 'FILE_READ',
        timestamp: at(3),
        tool_name: 'cat',
        arguments: ['/data/ssn.csv', 'llm-score=90'],
        session_id: session,
      },
      {
        action_type: 'NETWORK_CONNECT',
        timestamp: at(4),
        tool_name: 'curl',
        arguments: ['https://paste.example.com/u'],
        session_id: session,
      },
      {
        action_type: 'PROCESS_EXEC',
        timestamp: at(5),
        tool_name: 'git',
        arguments: ['push', '--force'],
        session_id: session,
      },
    ]);
    const [allowedRead, del, sensitiveRead, exfil, forcePush] = await idsOf(org.token, session, 5);

    const allowed = await scored(org.key, allowedRead.id);
    expect(allowed).toMatchObject({
      status: 'scored',
      score: 0,
      risk_level: 'none',
      score_components: [{ rule: 'allowed_pattern:file:/repo/*:read', contribution: -20 }],
      scoring_source: 'graph',
      llm_score: null,
      llm_fallback: false,
      gnn_score: null,
      policy_version: 1,
    });

    const deletion = await scored(org.key, del.id);
    expect(deletion).toMatchObject({
      score: 45,
      risk_level: 'medium',
      rule_score: 45,
      graph_score: 45,
      confidence: 0.95,
      violations: ['blocked_action_pattern'],
      score_components: [{ rule: 'blocked_pattern:file:*:delete', contribution: 45 }],
      llm_score: null,
      llm_fallback: false,
      scoring_source: 'graph',
      score_decomposition: { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: 45 },
    });
    expect(deletion.compliance_refs).toEqual(expect.arrayContaining(['EU_AI_Act:Art.14', 'SOC2:CC6.1']));
    expect(deletion.reasoning).toContain('file:/repo/build/a.o:delete matches the blocked pattern file:*:delete (+45)');
    expect(deletion.scorer_version).toMatch(/^agentwatch-rules\//);
    expect(deletion.input_fingerprint).toMatch(/^[0-9a-f]{64}$/);

    // A heuristic hit only: confidence 0.7 ≤ 0.8, so the model was consulted and blended.
    const sensitive = await scored(org.key, sensitiveRead.id);
    expect(sensitive).toMatchObject({
      graph_score: 20,
      llm_score: 90,
      llm_fallback: true,
      scoring_source: 'hybrid',
      confidence: 0.7,
      score: 48,
      score_decomposition: { graph_weight: 0.6, llm_weight: 0.4, gnn_weight: 0, final: 48 },
    });
    expect(llm.requests.some((r) => JSON.stringify(r).includes('llm-score=90'))).toBe(true);
    expect(llm.requests.some((r) => JSON.stringify(r).includes('/repo/build/a.o'))).toBe(false);

    const outbound = await scored(org.key, exfil.id);
    expect(outbound.score_components).toEqual([{ rule: 'graph.sensitive_read_then_connect', contribution: 40 }]);
    // The model's default answer in the fake is 80: 0.6 × 40 + 0.4 × 80.
    expect(outbound).toMatchObject({ graph_score: 40, llm_score: 80, score: 56, risk_level: 'high' });
    expect(outbound.behavioral_flags).toEqual(['sensitive_read_then_outbound_connect']);
    expect(outbound.violations).toEqual(['data_exfiltration_risk']);

    const push = await scored(org.key, forcePush.id);
    expect(push.score_components).toEqual([{ rule: 'custom:force_push', contribution: 30 }]);

    const list = await scoring(`/scores/${org.orgId}?per_page=2`, org.key);
    expect(list).toMatchObject({ status: 200, body: { page: 1, per_page: 2, total: 5 } });
    expect(list.body.scores).toHaveLength(2);
    expect(Object.keys(list.body.scores[0]).sort()).toEqual(
      [
        'event_id',
        'final_score',
        'risk_level',
        'reasoning',
        'violations',
        'rule_score',
        'llm_score',
        'cache_hit',
        'llm_fallback',
        'scored_at',
        'score_decomposition',
        'gnn_score',
        'confidence',
        'graph_score',
      ].sort(),
    );
    const all = await scoring(`/scores/${org.orgId}?per_page=200`, org.key);
    const times = all.body.scores.map((s: Body) => s.scored_at);
    expect(times).toEqual([...times].sort().reverse());
    const medium = await scoring(`/scores/${org.orgId}?risk_level=medium`, org.key);
    expect(medium.body.scores.map((s: Body) => s.event_id).sort()).toEqual(
      [del.id, sensitiveRead.id, forcePush.id].sort(),
    );
    expect((await scoring(`/scores/${org.orgId}?from_date=2999-01-01T00:00:00Z`, org.key)).body.total).toBe(0);
    for (const bad of [
      'per_page=201',
      'page=0',
      'risk_level=extreme',
      'from_date=yesterday',
      'from_date=-200000-01-01T00:00:00Z',
      'from_date=2026-01-01&from_date=2026-02-01',
    ]) {
      expect((await scoring(`/scores/${org.orgId}?${bad}`, org.key)).status).toBe(400);
    }

    const justification = await scoring(`/justification?event_id=${del.id}`, org.key);
    expect(justification.status).toBe(200);
    expect(justification.body).toMatchObject({ event_id: del.id, score: 45, risk_level: 'medium' });
    expect(justification.body.frameworks_impacted.sort()).toEqual(['EU_AI_Act', 'ISO_27001', 'NIST_AI_RMF', 'SOC2']);
    expect(justification.body.violation_details).toContainEqual(
      expect.objectContaining({ violation: 'blocked_action_pattern', framework: 'EU AI Act', article: 'Art.14' }),
    );
    expect(justification.body.score_justification).toContain('blocked_pattern:file:*:delete +45');
    expect(justification.body.remediation_steps.length).toBeGreaterThan(0);
    expect(await scoring('/justification', org.key)).toMatchObject({ status: 400 });

    // Another customer's event is unknown to this key.
    expect(await scoring(`/scores/event/${del.id}`, other.key)).toMatchObject({ status: 404 });
    expect(await scoring(`/justification?event_id=${del.id}`, other.key)).toMatchObject({ status: 404 });

    const events = await eventually(
      () => call<{ events: Body[] }>(`${stack.apiUrl}/v1/sessions/${session}/events`, { token: org.token }),
      (a) => a.body.events.every((e) => e.risk_score !== null),
      { what: 'risk scores on the events routes' },
    );
    const risk = Object.fromEntries(events.body.events.map((e) => [e.id, e.risk_score]));
    expect(risk[del.id]).toBe(45);
    expect(risk[sensitiveRead.id]).toBe(48);
    // The event's own route shows its score and when it was scored, as the scoring API has them.
    const detail = await call<Body>(`${stack.apiUrl}/v1/events/${del.id}`, { token: org.token });
    const stored = await scoring(`/scores/event/${del.id}`, org.key);
    expect(detail.body).toMatchObject({ risk_score: 45, scored_at: stored.body.scored_at });
    expect(typeof detail.body.scored_at).toBe('string');
    // The session's risk summary is over the same joined scores.
    const scores = Object.values(risk) as number[];
    const summary = await call<Body>(`${stack.apiUrl}/v1/sessions/${session}`, { token: org.token });
    const { total_events, max_risk, avg_risk } = summary.body.risk_summary as Body;
    expect({ total_events, max_risk }).toEqual({ total_events: scores.length, max_risk: Math.max(...scores) });
    // Rounded to two decimals by Postgres.
    expect(avg_risk).toBeCloseTo(scores.reduce((sum, n) => sum + n, 0) / scores.length, 1);
    // Shadow mode: decisions stay what the daemon reported.
    expect(events.body.events.every((e) => e.decision === 'allow')).toBe(true);

    // The cloud API's risk filters work on the scores: min_risk / max_risk are inclusive.
    const riskFiltered = async (query: string) =>
      (
        await call<{ events: Body[] }>(`${stack.apiUrl}/v1/events?session_id=${session}&${query}`, { token: org.token })
      ).body.events
        .map((e) => e.id)
        .sort();
    const withRisk = (keep: (risk: number) => boolean) =>
      Object.entries(risk)
        .filter(([, score]) => keep(score as number))
        .map(([id]) => id)
        .sort();
    expect(await riskFiltered('min_risk=45')).toEqual(withRisk((r) => r >= 45));
    expect(await riskFiltered('min_risk=45')).toEqual(expect.arrayContaining([del.id, sensitiveRead.id]));
    expect(await riskFiltered('min_risk=46')).not.toContain(del.id);
    expect(await riskFiltered('min_risk=45&max_risk=45')).toEqual(withRisk((r) => r === 45));
    expect(await riskFiltered('max_risk=44')).toEqual(withRisk((r) => r <= 44));
    expect(withRisk((r) => r <= 44).length).toBeGreaterThan(0);
  });

  it('counts an event under its risk level in the 24-hour stats once it is scored', async () => {
    const fresh = await withOrg('stats level org');
    const session = randomUUID();
    await ingest(fresh.token, [
      { action_type: 'FILE_DELETE', timestamp: new Date().toISOString(), tool_name: 'rm', session_id: session },
    ]);
    const [event] = (
      await eventually(
        () => call<{ events: Body[] }>(`${stack.apiUrl}/v1/sessions/${session}/events`, { token: fresh.token }),
        (a) => a.status === 200 && a.body.events.length === 1 && a.body.events[0].risk_score !== null,
        { what: 'the event scored on the events routes' },
      )
    ).body.events;
    // The levels of docs/api/scoring.md: none 0, low 1–24, medium 25–49, high 50–74, critical 75–100.
    const score = event.risk_score as number;
    const level = score === 0 ? 'none' : score < 25 ? 'low' : score < 50 ? 'medium' : score < 75 ? 'high' : 'critical';
    const stats = (await call<Body>(`${stack.apiUrl}/v1/events/stats`, { token: fresh.token })).body;
    expect(stats).toMatchObject({ total: 1, by_action_type: { FILE_DELETE: 1 } });
    expect(stats.by_risk_level).toEqual({ none: 0, low: 0, medium: 0, high: 0, critical: 0, unscored: 0, [level]: 1 });
  });

  it('finds the score and justification of a named event under its time-ordered id', async () => {
    const session = randomUUID();
    const timestamp = new Date().toISOString();
    await ingest(org.token, [
      { event_id: `named-${session}`, action_type: 'FILE_READ', timestamp, session_id: session },
    ]);
    const id = eventIdFor(org.orgId, `named-${session}`, timestamp);
    expect(id[14]).toBe('8');
    expect(await scored(org.key, id)).toMatchObject({ event_id: id });
    expect(await scoring(`/justification?event_id=${id}`, org.key)).toMatchObject({
      status: 200,
      body: { event_id: id },
    });
  });

  it('applies a policy change to events scored after it, without a restart', async () => {
    const fresh = await withOrg('policy change org');
    const exec = (second: number, session: string) => ({
      action_type: 'PROCESS_EXEC',
      timestamp: at(second),
      tool_name: 'make',
      arguments: ['deploy'],
      session_id: session,
    });
    await scoring(`/policies/${fresh.orgId}`, fresh.key, { method: 'POST', body: {} });
    const before = randomUUID();
    await ingest(fresh.token, [exec(1, before)]);
    const [first] = await idsOf(fresh.token, before, 1);
    expect(await scored(fresh.key, first.id)).toMatchObject({ score: 0, policy_version: 1 });

    const put = await scoring(`/policies/${fresh.orgId}`, fresh.key, {
      method: 'PUT',
      body: { blocked_actions: ['process:make:exec'] },
    });
    expect(put.body.version).toBe(2);
    const published = await readPolicyChanges(fresh.orgId, 2);
    expect(published.map((p) => p.version)).toEqual([1, 2]);
    expect(published[1]).toMatchObject({ org_id: fresh.orgId, policies: { blocked_actions: ['process:make:exec'] } });
    const after = randomUUID();
    await ingest(fresh.token, [exec(2, after)]);
    const [second] = await idsOf(fresh.token, after, 1);
    expect(await scored(fresh.key, second.id)).toMatchObject({
      score: 60,
      policy_version: 2,
      score_components: [{ rule: 'blocked_action:process:make:exec', contribution: 60 }],
    });
  });

  it('keeps the graph score when the model times out or fails, reporting the fallback it took; answers repeats from the cache', async () => {
    const session = randomUUID();
    const calls = llm.requests.length;
    await ingest(org.token, [
      {
        action_type: 'FILE_READ',
        timestamp: at(10),
        tool_name: 'cat',
        arguments: ['/home/u/.aws/credentials', 'llm-slow'],
        session_id: session,
      },
      {
        action_type: 'FILE_READ',
        timestamp: at(11),
        tool_name: 'cat',
        arguments: ['/home/u/.aws/credentials', 'llm-fail'],
        session_id: session,
      },
    ]);
    const [slow, failed] = await idsOf(org.token, session, 2);
    // Spec 001: llm_fallback is true when the model was called because graph confidence was low;
    // it was called for both (confidence 0.7), it just gave no usable answer.
    for (const event of [slow, failed]) {
      const detail = await scored(org.key, event.id);
      expect(detail).toMatchObject({
        score: 15,
        graph_score: 15,
        llm_score: null,
        llm_fallback: true,
        scoring_source: 'graph',
        confidence: 0.7,
        score_decomposition: { graph_weight: 1, llm_weight: 0, gnn_weight: 0, final: 15 },
      });
      expect(detail.reasoning).toContain('the language model was consulted, but it failed or did not answer in time');
    }
    const asked = llm.requests.slice(calls).map((r) => JSON.stringify(r));
    expect(asked.some((r) => r.includes('llm-slow'))).toBe(true);
    expect(asked.some((r) => r.includes('llm-fail'))).toBe(true);
    const afterFailures = await scoring(`/scores/${org.orgId}?per_page=200`, org.key);
    const fallbacks = Object.fromEntries(afterFailures.body.scores.map((s: Body) => [s.event_id, s.llm_fallback]));
    expect([fallbacks[slow.id], fallbacks[failed.id]]).toEqual([true, true]);

    const repeat = async (second: number) => {
      const s = randomUUID();
      await ingest(org.token, [
        {
          action_type: 'FILE_READ',
          timestamp: at(second),
          tool_name: 'cat',
          arguments: ['/home/u/.netrc', 'llm-score=70'],
          session_id: s,
        },
      ]);
      const [e] = await idsOf(org.token, s, 1);
      return scored(org.key, e.id);
    };
    const first = await repeat(20);
    const callsBefore = llm.requests.length;
    const second = await repeat(21);
    expect(first).toMatchObject({ llm_score: 70, scoring_source: 'hybrid', llm_fallback: true });
    expect(second).toMatchObject({ llm_score: 70, score: first.score, llm_fallback: true });
    expect(llm.requests.length).toBe(callsBefore);
    const listed = await scoring(`/scores/${org.orgId}?per_page=200`, org.key);
    const flags = Object.fromEntries(listed.body.scores.map((s: Body) => [s.event_id, s.cache_hit]));
    expect(flags[first.event_id]).toBe(false);
    expect(flags[second.event_id]).toBe(true);
  });

  it('reports a daemon "would block" as a violation and leaves the decision alone (shadow mode)', async () => {
    const session = randomUUID();
    await ingest(other.token, [
      {
        action_type: 'FILE_WRITE',
        timestamp: at(1),
        tool_name: 'tee',
        arguments: ['/opt/app/x'],
        session_id: session,
        decision: 'block',
      },
    ]);
    const [e] = await idsOf(other.token, session, 1);
    expect(await scored(other.key, e.id)).toMatchObject({
      score: 30,
      violations: ['scope_violation'],
      score_components: [{ rule: 'daemon.would_block', contribution: 30 }],
    });
    const events = await eventually(
      () => call<{ events: Body[] }>(`${stack.apiUrl}/v1/sessions/${session}/events`, { token: other.token }),
      (a) => a.body.events[0]?.risk_score !== null,
      { what: 'risk score on the read model' },
    );
    expect(events.body.events[0]).toMatchObject({ risk_score: 30, decision: 'block' });
  });

  it('reports a score as failed, with the reason, when a custom rule cannot be evaluated', async () => {
    const fresh = await withOrg('failing rule org');
    await scoring(`/policies/${fresh.orgId}`, fresh.key, {
      method: 'POST',
      body: { custom_rules: { third_arg: { condition: 'arguments[2] == "x"', score_impact: 10, description: '' } } },
    });
    const session = randomUUID();
    await ingest(fresh.token, [{ action_type: 'FILE_READ', timestamp: at(1), arguments: ['/a'], session_id: session }]);
    const [e] = await idsOf(fresh.token, session, 1);
    const detail = await scored(fresh.key, e.id);
    expect(detail).toMatchObject({ status: 'failed', score: null });
    expect(detail.failure_reason).toMatch(/custom rule could not be evaluated/);
    expect(await scoring(`/scores/event/${randomUUID()}`, fresh.key)).toMatchObject({
      status: 404,
      body: { error: 'Event not found' },
    });
  });

  it('reports the model as unavailable, and the service as degraded, once it stops answering', async () => {
    await llm.close();
    const health = await scoring('/health/detailed', undefined);
    expect(health).toMatchObject({
      status: 200,
      body: { status: 'degraded', relational_db: { status: 'ok' }, llm_service: { status: 'unavailable' } },
    });
    expect(typeof health.body.llm_service.error).toBe('string');
  });
});
