import { Principal } from '@agentwatch/auth';
import {
  EVENT_RECORDED_TYPE,
  EventRecordedV1,
  SESSION_RECORDED_TYPE,
  SessionRecordedV1,
  TOPICS,
  toWire,
} from '@agentwatch/contracts';
import { unavailable } from '@agentwatch/http';
import { Checkins } from '@agentwatch/identity';
import { BrokerUnavailableError, EventPublisher } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { eventKey } from './events/domain/record-events';

export interface Accepted {
  events: EventRecordedV1[];
  sessions: SessionRecordedV1[];
}

/**
 * The one way ingest reaches Kafka: every record of a request in one produce call, answered only
 * after the broker acknowledged all of them; a timeout is a 503, never a 200. The credential's first
 * ingest then counts as a daemon check-in.
 */
@Injectable()
export class IngestWriter {
  constructor(
    private readonly publisher: EventPublisher,
    private readonly checkins: Checkins,
  ) {}

  async append(principal: Principal, accepted: Accepted): Promise<void> {
    try {
      await this.publisher.publishAll([
        {
          topic: TOPICS.ingestEvents.name,
          messages: accepted.events.map((e) =>
            toWire({
              id: e.id,
              type: EVENT_RECORDED_TYPE,
              orgId: e.org_id,
              time: e.received_at,
              key: eventKey(e),
              payload: e,
            }),
          ),
        },
        {
          topic: TOPICS.ingestSessions.name,
          messages: accepted.sessions.map((s) =>
            toWire({
              id: s.id,
              type: SESSION_RECORDED_TYPE,
              orgId: s.org_id,
              time: s.received_at,
              key: s.session_id,
              payload: s,
            }),
          ),
        },
      ]);
    } catch (error) {
      if (error instanceof BrokerUnavailableError) {
        throw unavailable(
          error.mayBeAppended
            ? 'Event log unavailable: the request was not acknowledged and may or may not have been stored; retry it (events with an event_id are stored once)'
            : 'Event log unavailable: nothing from this request was ingested; retry later',
        );
      }
      throw error;
    }
    await this.checkins.ingested(principal);
  }
}
