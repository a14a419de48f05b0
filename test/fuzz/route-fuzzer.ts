import http from 'node:http';
import { asCurl, fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { FuzzContext, FuzzRequest, OpenApiDocument, Operation, operationsOf, requestOf } from './openapi-arbitraries';

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One raw HTTP exchange. node:http rather than fetch: the path goes out exactly as generated (`..`,
 * `%00` and invalid percent-encoding are not normalized away) and the body as arbitrary bytes. An
 * event stream is cut once its headers are in: it never ends by itself.
 */
export function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: { ...request.headers, ...(request.body ? { 'content-length': request.body.length } : {}) },
        agent: false,
      },
      (incoming) => {
        const answer = {
          status: incoming.statusCode ?? 0,
          contentType: String(incoming.headers['content-type'] ?? ''),
        };
        if (answer.contentType.startsWith('text/event-stream')) {
          incoming.destroy();
          return resolve({ ...answer, text: '' });
        }
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ ...answer, text: Buffer.concat(chunks).toString('utf8') }));
        incoming.on('error', reject);
      },
    );
    outgoing.setTimeout(15_000, () => outgoing.destroy(new Error('no answer within 15 s')));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** What the server must never put in an error answer: a stack frame, a source path, SQL. */
const LEAKS = [
  /\bat [\w$.<>]+ \(/,
  /node_modules/,
  /\.ts:/,
  /SELECT/,
  /INSERT/,
  /syntax error/,
  /violates/,
  /relation "/,
];

/** A route-specific rule on an answer, e.g. the `details` of an ingest 400: returns the problems found. */
export type AnswerRule = (operation: Operation, request: FuzzRequest, answer: Answer, body: unknown) => string[];

export function problemsOf(operation: Operation, request: FuzzRequest, answer: Answer, rules: AnswerRule[]): string[] {
  const problems: string[] = [];
  const documented = Object.keys(operation.spec.responses);
  if (answer.status >= 500) problems.push(`${answer.status}: a server error`);
  if (!documented.includes(String(answer.status)))
    problems.push(`${answer.status} is not among the documented statuses ${documented.join(', ')}`);
  let body: unknown = answer.text;
  try {
    body = JSON.parse(answer.text);
  } catch {
    // not JSON: kept as text
  }
  if (answer.status >= 400) {
    // A marker the request itself carried may be echoed back harmlessly (a rejected value quoted in `details`).
    const sent = `${request.path} ${request.body?.toString('utf8') ?? ''}`;
    for (const leak of LEAKS)
      if (leak.test(answer.text) && !leak.test(sent)) problems.push(`the body leaks ${leak.source}`);
    const error = (body as { error?: unknown } | null)?.error;
    if (typeof body !== 'object' || body === null || typeof error !== 'string')
      problems.push('the error body is not a JSON object with a string `error`');
  }
  for (const rule of rules) problems.push(...rule(operation, request, answer, body));
  return problems;
}

/** A request as a copy-paste command; binary bodies go through printf, dot segments need --path-as-is. */
export function replay(baseUrl: string, request: FuzzRequest): string {
  const text = request.body?.toString('utf8');
  const printable = text !== undefined && Buffer.from(text, 'utf8').equals(request.body!) && text.length <= 4_000;
  const curl = asCurl({
    method: request.method,
    url: `${baseUrl}${request.path}`,
    headers: request.headers,
    body: printable ? text : undefined,
  }).replace(/^curl /, /(^|\/)\.\.?(\/|$|\?)/.test(request.path) ? 'curl --path-as-is ' : 'curl ');
  if (request.body === undefined || printable) return curl;
  if (request.body.length > 4_000) return `${curl} --data-binary @body.bin  # body: ${describeBody(request.body)}`;
  const escaped = [...request.body].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  return `printf '${escaped}' | ${curl} --data-binary @-`;
}

function describeBody(body: Buffer): string {
  const head = body.subarray(0, 60).toString('utf8');
  return `${body.length} bytes starting ${JSON.stringify(head)}`;
}

export interface Coverage {
  /** Operations answered at least once past authentication (neither 401 nor 403). */
  reached: Set<string>;
  sent: Map<string, number>;
}

export interface FuzzOutcome {
  operations: Operation[];
  failures: string[];
  coverage: Coverage;
}

/**
 * One property per operation of the document, each run `runs` times with the fixed seed: every
 * operation is driven, and each failing one is reported with its own shrunk counterexample.
 */
export async function fuzzDocument(
  baseUrl: string,
  doc: OpenApiDocument,
  context: FuzzContext,
  { rules = [], weight = 100 }: { rules?: AnswerRule[]; weight?: number } = {},
): Promise<FuzzOutcome> {
  const budget = fuzzBudget();
  const operations = operationsOf(doc);
  const coverage: Coverage = { reached: new Set(), sent: new Map() };
  const failures: string[] = [];
  for (const operation of operations) {
    const property = fc.asyncProperty(requestOf(operation, context), async (request) => {
      const answer = await send(baseUrl, request);
      coverage.sent.set(operation.key, (coverage.sent.get(operation.key) ?? 0) + 1);
      if (answer.status !== 401 && answer.status !== 403) coverage.reached.add(operation.key);
      const problems = problemsOf(operation, request, answer, rules);
      if (problems.length > 0)
        throw new Error(`${problems.join('; ')}\n    answer ${answer.status}: ${answer.text.slice(0, 300)}`);
    });
    const run = await fc.check(property, {
      seed: budget.seed,
      numRuns: budget.runs(weight),
      // Shrinking replays requests: bounded, so one failing route cannot eat the suite's budget.
      interruptAfterTimeLimit: 20_000,
    });
    if (run.failed && run.counterexample) {
      const [request] = run.counterexample;
      const message = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
      failures.push(
        `${operation.key} (seed ${run.seed}, ${run.numShrinks} shrinks, credential: ${request.credential}): ${message}\n    ${replay(baseUrl, request)}`,
      );
    }
  }
  return { operations, failures, coverage };
}

/**
 * The two tests of a route-fuzzing suite: the properties on every answer, then coverage of the
 * document. `fuzz` runs once the suite's stack is up.
 */
export function itFuzzesEveryRoute(fuzz: () => Promise<FuzzOutcome>, minimumOperations: number): void {
  let outcome: FuzzOutcome | undefined;

  it('answers every operation within its contract: no 5xx, no leak, JSON errors, documented statuses', async () => {
    outcome = await fuzz();
    expect(outcome.failures.join('\n\n')).toBe('');
  });

  it('drove every (method, path) of the OpenAPI document past authentication', () => {
    expect(outcome).toBeDefined();
    const missed = outcome!.operations.filter((op) => !outcome!.coverage.reached.has(op.key)).map((op) => op.key);
    expect(missed).toEqual([]);
    expect(outcome!.operations.length).toBeGreaterThanOrEqual(minimumOperations);
  });
}
