import { Principal } from '@agentwatch/auth';
import { daemonItemsIngested, IngestDaemonItems, IngestDaemonItemsHandler } from './daemon/ingest-daemon-items';
import { eventsIngested, IngestEvents, IngestEventsHandler } from './events/ingest-events';
import { IngestWriter } from './ingest-writer';
import { IngestSessions, IngestSessionsHandler, sessionsIngested } from './sessions/ingest-sessions';

const principal: Principal = {
  orgId: '0192a3b4-c5d6-7e8f-9a0b-1c2d3e4f5a6b',
  credential: 'deploy-token',
  credentialId: '0192a3b4-c5d6-7e8f-9a0b-000000000009',
  machineId: null,
  subject: null,
};
// Kafka acknowledged: the answers are what the routes send once it did.
const writer = { append: async () => undefined } as unknown as IngestWriter;
const session = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const event = { action_type: 'FILE_READ', timestamp: '2026-10-01T08:00:00Z', session_id: session };

describe('the documented ingest answers', () => {
  it('POST /v1/events/ingest', async () => {
    const answer = await new IngestEventsHandler(writer).execute(new IngestEvents(principal, { events: [event] }));
    expect(eventsIngested.parse(answer)).toEqual(answer);
  });

  it('POST /v1/sessions/ingest, the flat record and the wrapper', async () => {
    const flat = { session_id: session, state: 'active', timestamp: '2026-10-01T08:00:00Z' };
    const wrapper = {
      events: [{ event_type: 'session_start', session_id: session, started_at: '2026-10-01T08:00:00Z' }],
    };
    for (const body of [flat, wrapper]) {
      const answer = await new IngestSessionsHandler(writer).execute(new IngestSessions(principal, body));
      expect(sessionsIngested.parse(answer)).toEqual(answer);
    }
  });

  it('POST /v1/ingest', async () => {
    const body = {
      events: [event, { event_type: 'session_end', session_id: session, ended_at: '2026-10-01T08:09:00Z' }],
    };
    const answer = await new IngestDaemonItemsHandler(writer).execute(new IngestDaemonItems(principal, body));
    expect(answer).toEqual({ ingested: 2, events: 1, sessions: 1 });
    expect(daemonItemsIngested.parse(answer)).toEqual(answer);
  });
});
