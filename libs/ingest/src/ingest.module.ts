import { eventRecordedV1, sessionRecordedV1, TOPICS } from '@agentwatch/contracts';
import { IdentityApiModule } from '@agentwatch/identity';
import { ProjectionDefinition, ProjectionLag } from '@agentwatch/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AgentsProjection } from './agents/agents.projection';
import { ListAgentsHandler } from './agents/list-agents';
import { IngestDaemonItemsHandler } from './daemon/ingest-daemon-items';
import { EventsProjection } from './events/events.projection';
import { GetEventHandler } from './events/get-event';
import { GetEventStatsHandler } from './events/get-event-stats';
import { IngestEventsHandler } from './events/ingest-events';
import { ListEventsHandler } from './events/list-events';
import { DaemonController } from './http/daemon.controller';
import { EventsController } from './http/events.controller';
import { GroupCommittedRateLimiterPostgres } from './http/group-committed-rate-limiter';
import { IngestRateLimit, IngestRateLimiter } from './http/ingest-rate-limit';
import { SessionsController } from './http/sessions.controller';
import { IngestWriter } from './ingest-writer';
import { GetSessionHandler } from './sessions/get-session';
import { IngestSessionsHandler } from './sessions/ingest-sessions';
import { ListSessionChildrenHandler } from './sessions/list-session-children';
import { ListSessionEventsHandler } from './sessions/list-session-events';
import { ListSessionsHandler } from './sessions/list-sessions';
import { SessionsProjection } from './sessions/sessions.projection';
import { ListStreamer } from './shared/streamed-list';

export interface IngestApiOptions {
  /** Requests per second per organization and ingest route, and the burst allowed above it. */
  rateLimit: { rps: number; burst: number };
}

function rateLimiter({ rps, burst }: IngestApiOptions['rateLimit'], dataSource: DataSource): IngestRateLimiter {
  // A window of burst/rps seconds allowing `burst` requests averages `rps` with bursts up to `burst`.
  const duration = Math.max(1, Math.round(burst / rps));
  const options = { points: burst, duration, keyPrefix: 'ingest' };
  const limiter = new GroupCommittedRateLimiterPostgres({
    ...options,
    storeClient: (dataSource.driver as PostgresDriver).master,
    storeType: 'pool',
    tableName: 'ingest_rate_limits',
    tableCreated: true,
    inMemoryBlockOnConsumed: burst + 1,
    inMemoryBlockDuration: duration,
    // If Postgres cannot be asked, each replica limits on its own rather than failing the ingest.
    insuranceLimiter: new RateLimiterMemory(options),
  });
  return { limiter, limit: burst };
}

const HANDLERS = [
  IngestEventsHandler,
  IngestSessionsHandler,
  IngestDaemonItemsHandler,
  ListEventsHandler,
  GetEventHandler,
  GetEventStatsHandler,
  ListSessionsHandler,
  GetSessionHandler,
  ListSessionChildrenHandler,
  ListSessionEventsHandler,
  ListAgentsHandler,
];

/** The cloud API's side of the ingest context: write routes that append to Kafka, read routes over the read models. */
@Module({})
export class IngestApiModule {
  static forRoot(options: IngestApiOptions): DynamicModule {
    return {
      module: IngestApiModule,
      imports: [CqrsModule, IdentityApiModule],
      controllers: [EventsController, SessionsController, DaemonController],
      providers: [
        {
          provide: IngestRateLimiter,
          inject: [DataSource],
          useFactory: (ds: DataSource) => rateLimiter(options.rateLimit, ds),
        },
        IngestRateLimit,
        IngestWriter,
        ProjectionLag,
        ListStreamer,
        ...HANDLERS,
      ],
    };
  }
}

/** The projector's side: the read models built from the ingest topics. */
@Module({ controllers: [EventsProjection, SessionsProjection, AgentsProjection] })
export class IngestProjectionsModule {}

// One consumer reads the ingest topics for all three read models: each event is fetched and decoded
// once, not three times, and a batch's rows in all three tables commit together. All three are pure
// read models (derivedOnly): waiting for the WAL flush on every batch only delayed ack → queryable.
export const INGEST_PROJECTIONS: ProjectionDefinition[] = [
  {
    name: 'events',
    consumer: 'ingest',
    topics: { [TOPICS.ingestEvents.name]: eventRecordedV1 },
    tables: ['events', 'event_hourly_counts'],
    derivedOnly: true,
  },
  {
    name: 'sessions',
    consumer: 'ingest',
    topics: { [TOPICS.ingestSessions.name]: sessionRecordedV1, [TOPICS.ingestEvents.name]: eventRecordedV1 },
    tables: ['sessions'],
    derivedOnly: true,
  },
  {
    name: 'agents',
    consumer: 'ingest',
    topics: { [TOPICS.ingestEvents.name]: eventRecordedV1 },
    tables: ['agents'],
    derivedOnly: true,
  },
];
