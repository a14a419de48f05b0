import { randomUUID } from 'node:crypto';
import { EventRecordedV1, EventScoredV1 } from '@agentwatch/contracts';
import { databaseConfigFromEnv, eventRiskStripe } from '@agentwatch/db';
import { EventsProjection } from '@agentwatch/ingest';
import { ProjectionBatch } from '@agentwatch/kafka';
import { Client } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { EventRiskProjection } from './event-risk.projection';

describe('event-risk projection: scores reach the events read model in either order', () => {
  const config = databaseConfigFromEnv();
  const orgId = randomUUID();
  let dataSource: DataSource;
  let events: Client;

  const score = (eventId: string, value: number, sessionId: string | null = null): EventScoredV1 => ({
    event_id: eventId,
    org_id: orgId,
    session_id: sessionId,
    status: 'scored',
    score: value,
    risk_level: 'high',
    failure_reason: null,
    scorer_version: 'test',
    policy_version: 1,
    fingerprint: 'f',
    scored_at: new Date().toISOString(),
  });
  const applyScores = (scores: EventScoredV1[]) =>
    dataSource.transaction((tx) =>
      new EventRiskProjection().apply({
        tx,
        topic: 'scoring.scores.v1',
        records: scores.map((payload, i) => ({
          id: payload.event_id,
          type: 't',
          orgId,
          payload,
          partition: 0,
          offset: String(i),
        })),
      } as ProjectionBatch<EventScoredV1>),
    );
  // The events projection itself, in a transaction of the caller's: it takes the interlock's stripes
  // and looks for a score already projected, as the projector does.
  const projectEvent = (tx: EntityManager, id: string, sessionId: string | null = null, action = 'FILE_READ') => {
    const at = new Date().toISOString();
    const payload = {
      id,
      org_id: orgId,
      client_event_id: null,
      session_id: sessionId,
      agent_id: null,
      machine_id: 'm-1',
      action_type: action,
      tool_name: null,
      arguments: [],
      decision: 'allow',
      timestamp: at,
      received_at: at,
    } as EventRecordedV1;
    return new EventsProjection().apply({
      tx,
      topic: 'ingest.events.v1',
      records: [{ id, type: 't', orgId, payload, partition: 0, offset: '0' }],
    } as ProjectionBatch<EventRecordedV1>);
  };
  const openBatch = async (): Promise<QueryRunner> => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    return runner;
  };
  const commit = async (runner: QueryRunner) => {
    await runner.commitTransaction();
    await runner.release();
  };
  const stripe = (sessionId: string) => eventRiskStripe(dataSource.manager, orgId, sessionId);
  const riskOf = async (id: string) =>
    (await events.query('SELECT risk_score, decision FROM events WHERE org_id = $1 AND id = $2', [orgId, id])).rows[0];

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'postgres', url: config.projectorUrl }).initialize();
    events = new Client({ connectionString: config.projectorUrl });
    await events.connect();
  });

  afterAll(async () => {
    await events?.end();
    await dataSource?.destroy();
  });

  it('updates an event projected before its score, and never touches the decision', async () => {
    const id = randomUUID();
    await projectEvent(dataSource.manager, id);
    await applyScores([score(id, 61)]);
    await applyScores([score(id, 61)]);
    expect(await riskOf(id)).toEqual({ risk_score: 61, decision: 'allow' });
    // The stats counters count the event at its level, once.
    const counters = await events.query(
      'SELECT risk_level, sum(count)::int AS count FROM event_hourly_risk WHERE org_id = $1 GROUP BY 1 HAVING sum(count) <> 0',
      [orgId],
    );
    expect(counters.rows).toEqual([{ risk_level: 'high', count: 1 }]);
  });

  it('gives an event projected after its score the score at insert time', async () => {
    const id = randomUUID();
    await applyScores([score(id, 42)]);
    await projectEvent(dataSource.manager, id);
    expect(await riskOf(id)).toEqual({ risk_score: 42, decision: 'allow' });
    const counters = await events.query(
      `SELECT risk_level, sum(count)::int AS count FROM event_hourly_risk
        WHERE org_id = $1 AND hour = date_trunc('hour', (SELECT "timestamp" FROM events WHERE org_id = $1 AND id = $2), 'UTC')
        GROUP BY 1 HAVING sum(count) <> 0`,
      [orgId, id],
    );
    expect(counters.rows).toContainEqual({ risk_level: 'medium', count: 1 });
  });

  it('waits for an events batch in flight, so neither side misses the other', async () => {
    const id = randomUUID();
    const session = randomUUID();
    const batch = await openBatch();
    await projectEvent(batch.manager, id, session);
    // The events batch has looked for a score (none yet) and has not committed.
    let applied = false;
    const scoring = applyScores([score(id, 77, session)]).then(() => {
      applied = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toBe(false);
    await commit(batch);
    await scoring;
    expect(await riskOf(id)).toEqual({ risk_score: 77, decision: 'allow' });
  });

  it('does not wait for an events batch in flight with other sessions', async () => {
    const [inFlight, committed] = [randomUUID(), randomUUID()];
    const busySession = randomUUID();
    let otherSession = randomUUID();
    // Sessions share a fixed number of stripes: pick one that does not share the busy session's.
    while ((await stripe(otherSession)) === (await stripe(busySession))) otherSession = randomUUID();
    const batch = await openBatch();
    try {
      await projectEvent(batch.manager, inFlight, busySession);
      // Another action: not even a stats counter in common with the open batch.
      await projectEvent(dataSource.manager, committed, otherSession, 'PROCESS_EXEC');
      // Returns while the batch of the busy session is still open.
      await applyScores([score(committed, 12, otherSession)]);
      expect(await riskOf(committed)).toEqual({ risk_score: 12, decision: 'allow' });
    } finally {
      await commit(batch);
    }
  });

  it('keeps in event_risk only the scores whose event is not projected, in a batch that mixes them', async () => {
    const [projected, waiting, redelivered] = [randomUUID(), randomUUID(), randomUUID()];
    await projectEvent(dataSource.manager, projected);
    await projectEvent(dataSource.manager, redelivered);
    await applyScores([score(redelivered, 30)]);

    await applyScores([score(projected, 64), score(waiting, 25), score(redelivered, 30)]);

    expect(await riskOf(projected)).toEqual({ risk_score: 64, decision: 'allow' });
    expect(await riskOf(redelivered)).toEqual({ risk_score: 30, decision: 'allow' });
    const waitingRows = await events.query(
      'SELECT event_id, risk_score FROM event_risk WHERE org_id = $1 AND event_id = ANY($2::uuid[])',
      [orgId, [projected, waiting, redelivered]],
    );
    expect(waitingRows.rows).toEqual([{ event_id: waiting, risk_score: 25 }]);
    await projectEvent(dataSource.manager, waiting);
    expect(await riskOf(waiting)).toEqual({ risk_score: 25, decision: 'allow' });
  });
});
