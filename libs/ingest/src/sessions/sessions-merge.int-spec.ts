import { randomUUID } from 'node:crypto';
import { EventRecordedV1, SessionRecordedV1, TOPICS } from '@agentwatch/contracts';
import { databaseConfigFromEnv } from '@agentwatch/db';
import { ProjectionBatch } from '@agentwatch/kafka';
import { fuzzBudget } from '@agentwatch/testing';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { METADATA, mergeAll, SessionInput, SessionRow, timeOf } from './domain/session-merge';
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
    const times = ['state_at', 'started_at', 'ended_at', 'last_seen_at', ...METADATA.map(timeOf)];
    const result: (SessionRow & { id: string })[] = await dataSource.query(
      `SELECT id, state, ${times.map(millis).join(', ')},
              ${METADATA.join(', ')}
         FROM sessions WHERE org_id = $1`,
      [orgId],
    );
    return new Map(result.map(({ id, ...row }) => [id, row]));
  }

  /** Projects the arrivals, cut into batches, for a fresh organization: its sessions' rows (none: undefined). */
  async function projected(list: Arrival[], cutAt: number[]): Promise<(SessionRow | undefined)[]> {
    const orgId = randomUUID();
    const ids = Array.from({ length: SESSIONS }, () => randomUUID());
    for (const batch of batches(list, cutAt)) await project(orgId, ids, batch);
    const byId = await rows(orgId);
    return ids.map((id) => byId.get(id));
  }

  it('gives every session the model’s row, for any permutation of the arrivals cut into any batches', async () => {
    const permuted = arrivals.chain((list) =>
      fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length }), cuts, cuts),
    );
    await fc.assert(
      fc.asyncProperty(permuted, async ([list, shuffled, cutAt, otherCutAt]) => {
        const model = Array.from({ length: SESSIONS }, (_, session) =>
          mergeAll(list.filter((a) => a.session === session).map((a) => a.input)),
        );
        const expected = model.map((row) => row ?? undefined);
        expect(await projected(list, cutAt)).toEqual(expected);
        expect(await projected(shuffled, otherCutAt)).toEqual(expected);
      }),
      { seed, numRuns: runs(40) },
    );
  });
});
