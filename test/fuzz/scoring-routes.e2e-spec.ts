import { randomUUID } from 'node:crypto';
import {
  call,
  createApiKey,
  createOrganization,
  eventually,
  RunningScoringStack,
  startScoringStack,
  TestOrganization,
} from '@agentwatch/testing';
import { FuzzContext, OpenApiDocument } from './openapi-arbitraries';
import { AnswerRule, fuzzDocument, itFuzzesEveryRoute } from './route-fuzzer';

type Row = Record<string, unknown>;

/** 401 texts of the API-key guard, and a 422's `details` naming each problem of the policy. */
const scoringRules: AnswerRule[] = [
  (_op, _request, answer, body) => {
    const error = (body as Row | null)?.error;
    if (answer.status === 401 && !['X-API-Key header required', 'Invalid API key'].includes(error as string))
      return [`401 with error ${String(error)}`];
    if (answer.status !== 422) return [];
    const details = (body as Row | null)?.details as Row[] | undefined;
    const wellFormed =
      error === 'Invalid policy' &&
      Array.isArray(details) &&
      details.length > 0 &&
      details.every((d) => typeof d?.path === 'string' && typeof d?.message === 'string');
    return wellFormed ? [] : ['a 422 without `details:[{path, message}]`'];
  },
];

describe('scoring API routes under OpenAPI-driven fuzzing', () => {
  let stack: RunningScoringStack;
  let doc: OpenApiDocument;
  let context: FuzzContext;

  /** Ingested through the cloud API, then read back once the worker scored it. */
  async function scoredEvent(org: TestOrganization): Promise<string> {
    const events = [
      { action_type: 'FILE_READ', timestamp: new Date().toISOString(), session_id: randomUUID(), tool_name: 'cat' },
    ];
    const ingested = await call(`${stack.apiUrl}/v1/events/ingest`, {
      method: 'POST',
      token: org.token,
      body: { events },
    });
    expect(ingested.status).toBe(200);
    const listed = await eventually(
      () => call(`${stack.apiUrl}/v1/events`, { token: org.token }),
      (r) => r.status === 200 && (r.body.events as Row[]).length === 1,
      { what: 'the projected event' },
    );
    const id = (listed.body.events as Row[])[0].id as string;
    const key = await createApiKey(org.orgId, stack.env);
    await eventually(
      () => call(`${stack.scoringUrl}/scores/event/${id}`, { headers: { 'x-api-key': key } }),
      (r) => r.status === 200 && r.body.status === 'scored',
      { what: 'the scored event' },
    );
    return id;
  }

  beforeAll(async () => {
    stack = await startScoringStack('fuzz-routes-scoring');
    const [a, b] = await Promise.all([
      createOrganization('fuzz scoring A', stack.env),
      createOrganization('fuzz scoring B', stack.env),
    ]);
    const [mine, theirs, keyA, keyB] = await Promise.all([
      scoredEvent(a),
      scoredEvent(b),
      createApiKey(a.orgId, stack.env),
      createApiKey(b.orgId, stack.env),
    ]);
    doc = (await call(`${stack.scoringUrl}/openapi.json`)).body as unknown as OpenApiDocument;
    const known: Record<string, string[]> = {
      customer_id: [a.orgId, a.orgId, b.orgId],
      event_id: [mine, mine, theirs],
      condition: ['action_type == "FILE_READ"', 'tool == "curl" && flags.exists(f, f == "x")', '1 +', '"a" * 2'],
      blocked_actions: ['network:evil.example:connect', 'file:*:read', '::', '*'],
    };
    const key = (label: string, value: string) => ({ label, headers: { 'x-api-key': value } });
    context = {
      validCredentials: [key("the customer's API key", keyA)],
      oddCredentials: [key("another customer's API key", keyB)],
      invalidCredentials: [
        { label: 'none', headers: {} },
        key('empty', ''),
        key('unknown key', 'aw_sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
        key('garbage', "' OR '1'='1"),
        { label: 'the key as a bearer token', headers: { authorization: `Bearer ${keyA}` } },
      ],
      known: (name) => known[name] ?? [],
    };
  });

  afterAll(() => stack?.stop());

  itFuzzesEveryRoute(() => fuzzDocument(stack.scoringUrl, doc, context, { rules: scoringRules }), 7);
});
