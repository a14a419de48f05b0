import { call, eventually } from '@agentwatch/testing';
import {
  controlPlaneEnv,
  isolatedDatabase,
  Operators,
  RunningControlPlane,
  startControlPlaneApp,
  startOperators,
  uniqueSlug,
} from '../../libs/testing/src/control-plane-stack';
import { FuzzContext, OpenApiDocument } from './openapi-arbitraries';
import { AnswerRule, fuzzDocument, itFuzzesEveryRoute } from './route-fuzzer';

type Row = Record<string, unknown>;

/** Spec 002 §2 and §7: every error is `{error, detail}`, with the fixed `error` of its status. */
const ERROR_OF: Record<number, string> = {
  400: 'bad_request',
  403: 'forbidden',
  409: 'conflict',
  422: 'unprocessable',
};
const controlPlaneRules: AnswerRule[] = [
  (operation, _request, answer, body) => {
    // The health routes are the shared HTTP layer's, not the operator surface's.
    if (answer.status < 400 || !operation.template.startsWith('/v1/')) return [];
    const { error, detail } = (body ?? {}) as Row;
    const problems = typeof detail === 'string' ? [] : ['an error without a string `detail`'];
    const expected = ERROR_OF[answer.status];
    if (expected && error !== expected) problems.push(`${answer.status} with error ${String(error)}, not ${expected}`);
    return problems;
  },
];

describe('control-plane routes under OpenAPI-driven fuzzing', () => {
  let operators: Operators;
  let db: Awaited<ReturnType<typeof isolatedDatabase>>;
  let cp: RunningControlPlane;
  let doc: OpenApiDocument;
  let context: FuzzContext;

  const request = (slug: string) => ({
    slug,
    name: 'Fuzz Corp',
    owner_email: 'it@fuzz.test',
    region: 'local',
    plan_tier: 'core',
    isolation: 'shared',
  });

  beforeAll(async () => {
    operators = await startOperators();
    db = await isolatedDatabase('fuzzcp');
    cp = await startControlPlaneApp(controlPlaneEnv('fuzz-routes-cp', operators, db.env));
    const slugs = [uniqueSlug('fuzz'), uniqueSlug('fuzz')];
    for (const slug of slugs) {
      const opened = await call(`${cp.url}/v1/tenants`, {
        method: 'POST',
        token: operators.alice,
        body: request(slug),
      });
      expect(opened.status).toBe(202);
      await eventually(
        async () => (await call(`${cp.url}/v1/tenants/${slug}`, { token: operators.viewer })).body.state,
        (state) => state === 'pending-approval',
        { what: `${slug} pending approval` },
      );
    }
    doc = (await call(`${cp.url}/openapi.json`)).body as unknown as OpenApiDocument;
    const known: Record<string, string[]> = {
      slug: [...slugs, ...slugs, 'no-such-tenant'],
      region: ['local', 'mars'],
      reason: ['not this quarter'],
      justification: ['the customer ended the contract on 2026-10-01'],
    };
    const bearer = (label: string, token: string) => ({ label, headers: { authorization: `Bearer ${token}` } });
    const forged = await operators.idp.token(
      { sub: 'mallory', role: 'operator', azp: 'agentwatch-operator' },
      { foreignKey: true },
    );
    const expired = await operators.idp.token(
      { sub: 'alice@ops.test', role: 'operator', azp: 'agentwatch-operator' },
      { expiresIn: -60 },
    );
    context = {
      validCredentials: [bearer('operator alice (requester)', operators.alice), bearer('operator bob', operators.bob)],
      oddCredentials: [bearer('viewer', operators.viewer)],
      invalidCredentials: [
        { label: 'none', headers: {} },
        { label: 'Basic scheme', headers: { authorization: 'Basic ZnV6ejpmdXp6' } },
        bearer('garbage', 'not-a-jwt'),
        bearer('forged', forged),
        bearer('expired', expired),
        bearer('product client token', operators.product),
      ],
      known: (name) => known[name] ?? [],
    };
  });

  afterAll(async () => {
    await cp?.stop();
    await operators?.idp.stop();
    await db?.drop();
  });

  itFuzzesEveryRoute(() => fuzzDocument(cp.url, doc, context, { rules: controlPlaneRules }), 11);
});
