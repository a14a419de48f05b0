import { Principal } from '@agentwatch/auth';
import { RouteDirectory, UNAVAILABLE_MESSAGES } from '@agentwatch/cells';
import {
  EVENT_RECORDED_TYPE,
  EventRecordedV1,
  SESSION_RECORDED_TYPE,
  SessionRecordedV1,
  TOPICS,
  toWire,
} from '@agentwatch/contracts';
import { RetryLater, unavailable } from '@agentwatch/http';
import { Checkins } from '@agentwatch/identity';
import { BrokerUnavailableError, EventPublisher } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { eventKey } from './events/domain/record-events';

/**
 * How long a daemon waits before sending again a batch refused because its organization's database
 * is not routable (being created, upgraded or removed): long enough not to hammer, short against an
 * upgrade's minutes.
 */
const UNROUTABLE_RETRY_AFTER_SECONDS = 30;

export interface Accepted {
  events: EventRecordedV1[];
  sessions: SessionRecordedV1[];
}

/**
 * The one way ingest reaches Kafka: every record of a request in one produce call, answered only
 * after the broker acknowledged all of them; a timeout is a 503, never a 200. The credential's first
 * ingest then counts as a daemon check-in. An organization whose route is unavailable is refused
 * before anything is appended: its records could be stored nowhere.
 */
@Injectable()
export class IngestWriter {
  constructor(
    private readonly publisher: EventPublisher,
    private readonly checkins: Checkins,
    private readonly routes: RouteDirectory,
  ) {}

  async append(principal: Principal, accepted: Accepted): Promise<void> {
    const placement = await this.routes.placementOf(principal.orgId);
    if (placement.kind === 'unavailable') {
      throw new RetryLater(
        `${UNAVAILABLE_MESSAGES[placement.reason]}: nothing from this request was ingested; retry in ${UNROUTABLE_RETRY_AFTER_SECONDS} s`,
        UNROUTABLE_RETRY_AFTER_SECONDS,
      );
    }
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
