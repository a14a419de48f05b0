import type { z } from 'zod';
import { CHECKIN_RECORDED_TYPE, checkinRecordedV1 } from './checkins';
import { EVENT_RECORDED_TYPE, eventRecordedV1 } from './events';
import { EVENT_SCORED_TYPE, eventScoredV1, POLICY_CHANGED_TYPE, policyChangedV1 } from './scoring';
import { SESSION_RECORDED_TYPE, sessionRecordedV1 } from './sessions';
import {
  FLOW_EVENT_RECORDED_TYPE,
  flowEventRecordedV1,
  INGEST_TOKEN_CHANGED_TYPE,
  ingestTokenChangedV1,
  ROUTE_CHANGED_TYPE,
  routeChangedV1,
} from './tenancy';
import { TOPICS } from './topics';

/**
 * One typed map from topic to payload, shared by producers and consumers, so "find usages"
 * follows a record across apps (STYLE.md item 7).
 */
export const PAYLOADS = {
  [TOPICS.ingestEvents.name]: { ceType: EVENT_RECORDED_TYPE, schema: eventRecordedV1 },
  [TOPICS.ingestSessions.name]: { ceType: SESSION_RECORDED_TYPE, schema: sessionRecordedV1 },
  [TOPICS.ingestCheckins.name]: { ceType: CHECKIN_RECORDED_TYPE, schema: checkinRecordedV1 },
  [TOPICS.scoringScores.name]: { ceType: EVENT_SCORED_TYPE, schema: eventScoredV1 },
  [TOPICS.scoringPolicies.name]: { ceType: POLICY_CHANGED_TYPE, schema: policyChangedV1 },
  [TOPICS.tenancyFlows.name]: { ceType: FLOW_EVENT_RECORDED_TYPE, schema: flowEventRecordedV1 },
  [TOPICS.tenancyTokens.name]: { ceType: INGEST_TOKEN_CHANGED_TYPE, schema: ingestTokenChangedV1 },
  [TOPICS.tenancyRoutes.name]: { ceType: ROUTE_CHANGED_TYPE, schema: routeChangedV1 },
} as const;

export type PayloadTopic = keyof typeof PAYLOADS;
export type PayloadOf<T extends PayloadTopic> = z.infer<(typeof PAYLOADS)[T]['schema']>;
