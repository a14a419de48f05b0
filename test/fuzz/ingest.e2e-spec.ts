import { TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv, ownerDataSource } from '@agentwatch/db';
import { createKafka, kafkaSettingsFromEnv } from '@agentwatch/kafka';
import {
  asCurl,
  call,
  createOrganization,
  eventually,
  fuzzBudget,
  RunningScoringStack,
  startScoringStack,
} from '@agentwatch/testing';
import fc from 'fast-check';
import { deadLettersUnder, laggingReaders, partitionEnds } from './consumer-positions';
import { IngestRequest, ingestRequest } from './ingest-arbitraries';
import { Promised, storedFor } from './stored-exactly-once';

const budget = fuzzBudget();
const ORGANIZATIONS = 4;

interface ErrorBody {
  error?: unknown;
  details?: { index: unknown; path: unknown; message: unknown }[];
}

/** A refusal as the ingest routes document it: 400 with the items at fault, or 413 past the size limits. */
function documentedRefusal(status: number, body: ErrorBody): boolean {
  if (typeof body?.error !== 'string') return false;
  if (status === 413) return true;
  return (
    status === 400 &&
    Array.isArray(body.details) &&
    body.details.length > 0 &&
    body.details.every(
      (d) =>
        (d.index === null || Number.isInteger(d.index)) && typeof d.path === 'string' && typeof d.message === 'string',
    )
  );
}

describe('adversarial ingest through HTTP → Kafka → Postgres (property-based)', () => {
  let stack: RunningScoringStack;
  let organizations: Promised[];
  let sent = 0;
  let accepted = 0;

  beforeAll(async () => {
    stack = await startScoringStack('fuzz-ingest');
    organizations = await Promise.all(
      Array.from({ length: ORGANIZATIONS }, async (_, i) => {
        const org = await createOrganization(`fuzz ${i}`, stack.env);
        return new Promised(org.orgId, org.token);
      }),
    );
  });

  afterAll(() => stack?.stop());

  it('answers every batch 200 or a documented 4xx, and never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(ingestRequest, async ({ route, body }: IngestRequest) => {
        const org = organizations[sent++ % ORGANIZATIONS];
        const raw = JSON.stringify(body);
        const request = {
          method: 'POST',
          url: `${stack.apiUrl}${route}`,
          headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' },
          body: raw,
        };
        const answer = await call<ErrorBody>(request.url, { method: 'POST', token: org.token, raw });
        const curl = asCurl(request);
        if (answer.status === 200) {
          accepted += 1;
          org.accept(route, body as Record<string, unknown>, curl);
          return;
        }
        if (!documentedRefusal(answer.status, answer.body)) {
          throw new Error(`${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}\nreplay: ${curl}`);
        }
      }),
      { seed: budget.seed, numRuns: budget.runs(400), endOnFailure: false },
    );
    // The generators must reach both sides of the edge, or the properties prove little.
    expect(accepted).toBeGreaterThan(sent / 10);
    expect(accepted).toBeLessThan(sent);
  });

  it('stores every accepted event and session exactly once', async () => {
    for (const org of organizations) {
      const stored = await storedFor(stack.apiUrl, org);
      const replay = `requests of organization ${org.orgId}:\n${org.requests.join('\n')}`;
      expect({ events: new Set(stored.events).size, replay }).toEqual({ events: stored.events.length, replay });
      expect({ events: stored.events.length, replay }).toEqual({ events: org.expectedEvents, replay });
      expect({ missing: [...org.eventIds].filter((id) => !stored.events.includes(id)), replay }).toEqual({
        missing: [],
        replay,
      });
      expect({ sessions: [...stored.sessions].sort(), replay }).toEqual({
        sessions: [...org.sessionIds].sort(),
        replay,
      });
    }
  });

  it('leaves every consumer caught up and no dead letter behind', async () => {
    const settings = kafkaSettingsFromEnv('fuzz-ingest', stack.env);
    const admin = createKafka(settings).admin();
    const database = await ownerDataSource(databaseConfigFromEnv(stack.env)).initialize();
    await admin.connect();
    try {
      const topics = [TOPICS.ingestEvents.name, TOPICS.ingestSessions.name].map((t) => settings.prefix + t);
      const ends = await partitionEnds(admin, topics);
      // The projector's consumers and the scoring worker's: every partition with records is read to its end.
      const final = await eventually(
        () => laggingReaders(database, ends),
        (readers) => readers.groups >= 2 && readers.lagging.length === 0,
        { what: 'consumers at the end of every partition', timeoutMs: 60_000 },
      );
      expect(final.lagging).toEqual([]);
      expect(await deadLettersUnder(admin, settings.prefix)).toEqual([]);
    } finally {
      await admin.disconnect();
      await database.destroy();
    }
  });
});
