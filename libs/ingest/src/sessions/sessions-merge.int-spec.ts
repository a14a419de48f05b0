import { randomUUID } from 'node:crypto';
import { EventRecordedV1, SessionRecordedV1, TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { METADATA, mergeAll, SessionInput, SessionRow } from './domain/session-merge';
import { lifecycleRecord } from './domain/session-merge.arbitraries';
import { SessionsProjection } from './sessions.projection';

const SESSIONS = 3;
const BASE = Date.parse('2026-11-20T10:00:00.000Z');
const PARENTS = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];

interface Arrival {
  session: number;
  input: SessionInput;
}

/** Random arrivals for a few sessions, on few distinct times so that ties are common. */
const at = fc.integer({ min: 0, max: 5 }).map((n) => BASE + n * 1000);
const input: fc.Arbitrary<SessionInput> = fc.oneof(
  lifecycleRecord(at, PARENTS),
  fc.record({ kind: fc.constant('event' as const), at }),
);
const arrivals = fc.array(fc.record({ session: fc.nat(SESSIONS - 1), input }), { minLength: 1, maxLength: 14 });
/** Where the arrivals are cut into batches (a batch also ends where the topic changes). */
const cuts = fc.array(fc.nat(14), { maxLength: 5 });

function batches(list: Arrival[], cutAt: number[]): Arrival[][] {
  const out: Arrival[][] = [];
  list.forEach((arrival, i) => {
    const last = out[out.length - 1];
    const sameBatch = last && !cutAt.includes(i) && last[0].input.kind === arrival.input.kind;
    if (sameBatch) last.push(arrival);
    else out.push([arrival]);
  });
  return out;
}

function payload(orgId: string, sessionId: string, input: SessionInput): SessionRecordedV1 | EventRecordedV1 {
  const timestamp = new Date(input.at).toISOString();
  if (input.kind === 'event') {
    return {
      id: randomUUID(),
      org_id: orgId,
      client_event_id: null,
      session_id: sessionId,
      agent_id: null,
      machine_id: 'm-1',
      action_type: 'FILE_READ',
      tool_name: null,
      arguments: [],
      decision: 'allow',
      timestamp,
      received_at: timestamp,
    };
  }
  const { kind: _, at: __, ...lifecycle } = input;
  return { id: randomUUID(), org_id: orgId, session_id: sessionId, timestamp, received_at: timestamp, ...lifecycle };
}

describe('the sessions merge in SQL agrees with its pure model', () => {
  const { seed, runs } = fuzzBudget();
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: databaseConfigFromEnv().projectorUrl }).initialize();
  });
  afterAll(() => dataSource?.destroy());

  async function project(orgId: string, ids: string[], batch: Arrival[]): Promise<void> {
    const topic = batch[0].input.kind === 'lifecycle' ? TOPICS.ingestSessions.name : TOPICS.ingestEvents.name;
    await dataSource.transaction((tx) =>
      new SessionsProjection().apply({
        tx,
        topic,
        records: batch.map(({ session, input }, i) => {
          const body = payload(orgId, ids[session], input);
          return { id: body.id, type: 't', time: body.received_at, orgId, payload: body, partition: 0, offset: `${i}` };
        }),
      } as ProjectionBatch<SessionRecordedV1 | EventRecordedV1>),
    );
  }

  async function rows(orgId: string): Promise<Map<string, SessionRow>> {
    const millis = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${column}`;
    const result: (SessionRow & { id: string })[] = await dataSource.query(
      `SELECT id, state, ${['state_at', 'started_at', 'ended_at', 'last_seen_at', 'record_at'].map(millis).join(', ')},
              ${METADATA.join(', ')}
         FROM sessions WHERE org_id = $1`,
      [orgId],
    );
    return new Map(result.map(({ id, ...row }) => [id, row]));
  }

  it('gives every session the row the model gives, for any arrivals cut into any batches', async () => {
    await fc.assert(
      fc.asyncProperty(arrivals, cuts, async (list, cutAt) => {
        const orgId = randomUUID();
        const ids = Array.from({ length: SESSIONS }, () => randomUUID());
        for (const batch of batches(list, cutAt)) await project(orgId, ids, batch);

        const expected = new Map<string, SessionRow>();
        ids.forEach((id, session) => {
          const row = mergeAll(list.filter((a) => a.session === session).map((a) => a.input));
          if (row) expected.set(id, row);
        });
        expect(await rows(orgId)).toEqual(expected);
      }),
      { seed, numRuns: runs(40) },
    );
  });
});
