import { checkinRecordedV1, ingestTokenChangedV1, TOPICS } from '@agentwatch/contracts';
import { ProjectionDefinition } from '@agentwatch/kafka';
import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { FlowEngine } from './engine/flow-engine';
import { OutboxRelay } from './engine/outbox-relay';
import { JournalStream } from './http/journal-stream';
import { OperatorGuard } from './http/operator-auth';
import { TenantListController } from './http/tenant-list.controller';
import { TenantsController } from './http/tenants.controller';
import { CheckinsConsumer } from './projections/checkins.consumer';
import { CheckinsOpener } from './projections/checkins.opener';
import { IngestTokensProjection } from './projections/ingest-tokens.projection';
import { TenancySettings } from './tenancy.settings';
import { ApproveTenantHandler } from './use-cases/approve-tenant';
import { CancelTenantHandler } from './use-cases/cancel-tenant';
import { DeprovisionTenantHandler } from './use-cases/deprovision-tenant';
import { GetTenantHandler } from './use-cases/get-tenant';
import { ListTenantsHandler } from './use-cases/list-tenants';
import { MintIngestTokenHandler } from './use-cases/mint-ingest-token';
import { RejectTenantHandler } from './use-cases/reject-tenant';
import { RequestTenantHandler } from './use-cases/request-tenant';
import { ResumeTenantHandler } from './use-cases/resume-tenant';

const HANDLERS = [
  RequestTenantHandler,
  GetTenantHandler,
  ListTenantsHandler,
  ApproveTenantHandler,
  RejectTenantHandler,
  CancelTenantHandler,
  ResumeTenantHandler,
  MintIngestTokenHandler,
  DeprovisionTenantHandler,
];

/** The control plane's side: operator routes, the flow engine, the outbox relay, the check-in consumer. */
@Module({})
export class TenancyModule {
  static forRoot(settings: TenancySettings): DynamicModule {
    return {
      module: TenancyModule,
      imports: [CqrsModule],
      controllers: [TenantListController, TenantsController, CheckinsConsumer],
      providers: [
        { provide: TenancySettings, useValue: settings },
        ...HANDLERS,
        JournalStream,
        OperatorGuard,
        FlowEngine,
        OutboxRelay,
        CheckinsOpener,
      ],
    };
  }
}

/** Consumed by the control plane: daemon check-ins activate a tenant. */
export const CONTROL_PLANE_PROJECTIONS: ProjectionDefinition[] = [
  { name: 'tenancy-checkins', topics: { [TOPICS.ingestCheckins.name]: checkinRecordedV1 }, tables: [] },
];

/** The projector's side: tenant ingest tokens become deploy tokens the cloud API accepts. */
@Module({ controllers: [IngestTokensProjection] })
export class TenancyProjectionsModule {}

// It writes rows of API-owned tables (organizations, deploy_tokens) by key, so `agentwatch replay`
// must never rebuild those tables from it: the projector runs it next to PROJECTIONS, not in it.
export const TENANCY_PROJECTIONS: ProjectionDefinition[] = [
  { name: 'tenancy-tokens', topics: { [TOPICS.tenancyTokens.name]: ingestTokenChangedV1 }, tables: [] },
];
