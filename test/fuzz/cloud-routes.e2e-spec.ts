import { randomUUID } from 'node:crypto';
import {
  call,
  createOrganization,
  eventually,
  FakeIdentityProvider,
  RunningStack,
  startStack,
  TestOrganization,
  TokenOptions,
} from '@agentwatch/testing';
import { UnsecuredJWT } from 'jose';
import { FuzzContext, OpenApiDocument, Operation } from './openapi-arbitraries';
import { AnswerRule, fuzzDocument, itFuzzesEveryRoute } from './route-fuzzer';

const ISSUER = 'https://idp.fuzz.test';
const AUDIENCE = 'agentwatch-cloud';
const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 8, minute)).toISOString();

type Row = Record<string, unknown>;
interface Details {
  index?: unknown;
  path?: unknown;
  message?: unknown;
}

const SPEC_401 = ['Authorization header required', 'Invalid token'];

/**
 * Spec §7 (401 and 429 texts) and DESIGN §5: an ingest 400 names each problem `{index, path, message}`,
 * `index` null when the problem is the body itself rather than one of its items.
 */
const cloudRules: AnswerRule[] = [
  (_op, _request, answer, body) => {
    const error = (body as Row | null)?.error;
    if (answer.status === 401 && !SPEC_401.includes(error as string)) return [`401 with error ${String(error)}`];
    if (answer.status === 429 && error !== 'Rate limit exceeded') return [`429 with error ${String(error)}`];
    return [];
  },
  (operation: Operation, request, answer, body) => {
    if (answer.status !== 400) return [];
    const details = (body as Row | null)?.details as Details[] | undefined;
    const ingest = operation.method === 'POST' && operation.template.endsWith('ingest');
    if (details === undefined)
      return ingest && request.wellFormedJson ? ['an ingest 400 for a JSON body without `details`'] : [];
    if (!Array.isArray(details) || details.length === 0) return ['`details` is not a non-empty array'];
    const bad = details.filter(
      (d) =>
        typeof d?.path !== 'string' ||
        typeof d?.message !== 'string' ||
        (ingest && !(d?.index === null || (Number.isInteger(d?.index) && (d.index as number) >= 0))),
    );
    return bad.length > 0 ? [`malformed details ${JSON.stringify(bad[0]).slice(0, 200)}`] : [];
  },
];

describe('cloud API routes under OpenAPI-driven fuzzing', () => {
  let idp: FakeIdentityProvider;
  let stack: RunningStack;
  let a: TestOrganization;
  let b: TestOrganization;
  let doc: OpenApiDocument;
  let context: FuzzContext;

  const api = (path: string, options: Parameters<typeof call>[1] = {}) => call(`${stack.apiUrl}${path}`, options);

  /** Sessions and events of an organization, read back once projected. */
  async function seed(org: TestOrganization) {
    const root = randomUUID();
    const child = randomUUID();
    const agent = `agent-${root.slice(0, 8)}`;
    const session = (session_id: string, minute: number, parent_id: string | null) =>
      api('/v1/sessions/ingest', {
        method: 'POST',
        token: org.token,
        body: { session_id, state: 'active', timestamp: at(minute), platform: 'claude-code', parent_id },
      });
    await session(root, 1, null);
    await session(child, 2, root);
    const events = ['PROCESS_EXEC', 'FILE_READ', 'NETWORK_CONNECT'].map((action_type, i) => ({
      action_type,
      timestamp: at(3 + i),
      session_id: i === 2 ? child : root,
      agent_id: agent,
      tool_name: 'git',
      arguments: ['status'],
    }));
    expect((await api('/v1/events/ingest', { method: 'POST', token: org.token, body: { events } })).status).toBe(200);
    const all = await eventually(
      () => api('/v1/events', { token: org.token }),
      (r) => (r.body.events as Row[]).length === 3,
      { what: 'all seeded events' },
    );
    // Read once all three are projected: a page of two read while only two were had no next page,
    // and the fuzzer was handed a null cursor.
    const listed = await api('/v1/events?limit=2', { token: org.token });
    expect(listed.body.next_cursor).toEqual(expect.any(String));
    return {
      sessions: [root, child],
      events: (all.body.events as Row[]).map((e) => e.id as string),
      agent,
      cursor: listed.body.next_cursor as string,
    };
  }

  beforeAll(async () => {
    idp = await FakeIdentityProvider.start({ issuer: ISSUER, audience: AUDIENCE });
    stack = await startStack('fuzz-routes-cloud', {
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
      // The fuzzer sends a few hundred ingest requests: a 429 would hide what the route does with them.
      INGEST_RATE_LIMIT_RPS: '100000',
      INGEST_RATE_LIMIT_BURST: '100000',
    });
    [a, b] = await Promise.all([createOrganization('fuzz A', stack.env), createOrganization('fuzz B', stack.env)]);
    const jwt = await idp.token({ sub: 'fuzz-admin', org_id: a.orgId });
    const [mine, theirs] = await Promise.all([seed(a), seed(b)]);
    const register = (machine_id: string) =>
      api('/v1/machines/register', { method: 'POST', token: a.token, body: { machine_id } });
    const machine = (await register('fuzz-machine')).body;
    await register('fuzz-machine-to-revoke');
    // Tokens the fuzzer may revoke: never the credentials it authenticates with.
    const revocable = (await api('/v1/deploy-tokens', { method: 'POST', token: jwt, body: { name: 'revocable' } }))
      .body;
    doc = (await api('/openapi.json')).body as unknown as OpenApiDocument;
    const known: Record<string, string[]> = {
      id: [...mine.sessions, ...mine.events, revocable.id as string, theirs.sessions[0], theirs.events[0]],
      machineId: ['fuzz-machine', 'fuzz-machine-to-revoke', 'unknown-machine'],
      session_id: [...mine.sessions, theirs.sessions[0]],
      parent_id: mine.sessions,
      agent_id: [mine.agent, theirs.agent],
      tool_name: ['git'],
      platform: ['claude-code'],
      cursor: [mine.cursor],
      action_type: ['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'],
      decision: ['allow', 'warn', 'block'],
      state: ['active', 'idle', 'ended'],
    };
    const bearer = (label: string, token: string) => ({ label, headers: { authorization: `Bearer ${token}` } });
    const signed = (label: string, claims: Record<string, unknown>, options: TokenOptions = {}) =>
      idp.token(claims, options).then((token) => bearer(label, token));
    context = {
      validCredentials: [
        bearer('JWT with the org_id claim', jwt),
        bearer('deploy token', a.token),
        bearer("machine's service token", machine.service_token as string),
      ],
      invalidCredentials: [
        { label: 'none', headers: {} },
        { label: 'empty Authorization', headers: { authorization: '' } },
        { label: 'Bearer without token', headers: { authorization: 'Bearer' } },
        { label: 'Basic scheme', headers: { authorization: 'Basic ZnV6ejpmdXp6' } },
        bearer('garbage', 'not-a-jwt'),
        bearer('unknown deploy token', 'svc_deploy_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
        await signed('JWT signed by a foreign key', { sub: 'mallory', org_id: a.orgId }, { foreignKey: true }),
        await signed('expired JWT', { sub: 'fuzz-admin', org_id: a.orgId }, { expiresIn: -60 }),
        await signed('JWT for another audience', { sub: 'fuzz-admin', org_id: a.orgId }, { audience: 'someone-else' }),
        bearer(
          'unsigned JWT (alg none)',
          new UnsecuredJWT({ sub: 'mallory', org_id: a.orgId }).setIssuer(ISSUER).setAudience(AUDIENCE).encode(),
        ),
      ],
      oddCredentials: [
        await signed('JWT whose org_id names no organization', { sub: 'ghost', org_id: randomUUID() }),
        await signed('JWT whose org_id is not a UUID', { sub: 'fuzz-admin', org_id: 'not-a-uuid' }),
        await signed('JWT without org_id of a member of no organization', { sub: `nobody-${randomUUID()}` }),
      ],
      known: (name) => known[name] ?? [],
    };
  });

  afterAll(async () => {
    await stack?.stop();
    await idp?.stop();
  });

  itFuzzesEveryRoute(() => fuzzDocument(stack.apiUrl, doc, context, { rules: cloudRules }), 20);
});
