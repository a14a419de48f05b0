// Topic contract (docs/architecture.md). Names are `<context>.<stream>.v<N>`; a deployment may prefix them
// (test runs do, so reruns on a used machine never read an earlier run's records).

export const FOREVER = -1;

export interface TopicSpec {
  readonly name: string;
  readonly retentionMs: number;
  readonly cleanupPolicy: 'delete' | 'compact';
}

export const TOPICS = {
  ingestEvents: { name: 'ingest.events.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  ingestSessions: { name: 'ingest.sessions.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  ingestCheckins: { name: 'ingest.checkins.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  scoringScores: { name: 'scoring.scores.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  scoringPolicies: { name: 'scoring.policies.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  tenancyFlows: { name: 'tenancy.flows.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  tenancyTokens: { name: 'tenancy.tokens.v1', retentionMs: FOREVER, cleanupPolicy: 'delete' },
  // The route directory: the newest route of each organization is all a reader needs.
  tenancyRoutes: { name: 'tenancy.routes.v1', retentionMs: FOREVER, cleanupPolicy: 'compact' },
} as const satisfies Record<string, TopicSpec>;

export type TopicKey = keyof typeof TOPICS;

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

export function prefixedTopic(prefix: string, topic: string): string {
  return `${prefix}${topic}`;
}
