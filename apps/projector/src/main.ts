import { PostgresHealth } from '@agentwatch/db';
import { AppDefinition, BootOptions, bootApp, runApp } from '@agentwatch/http';
import { KafkaHealth, ProjectionRouting, projectionTransport } from '@agentwatch/kafka';
import { PROJECTIONS, ProjectorModule } from '@agentwatch/projections';
import { TENANCY_PROJECTIONS } from '@agentwatch/tenancy';
import { ProjectorConfig, projectorConfigFromEnv } from './config';

// Every partition of a fetch (the topics have 12): the batches waiting on a database share its next
// transaction (see CommitGroups), so more in flight means less waiting, not more transactions.
// A replay keeps the projections' default (docs/adr/0021-projector-partitions-in-flight.md).
const PROJECTOR_PARTITIONS_IN_FLIGHT = 12;

export const projector: AppDefinition<ProjectorConfig> = {
  name: 'projector',
  title: 'agentwatch projector',
  description: 'Builds the read models from the ingest topics. Health, readiness and metrics only.',
  module: (config) => ProjectorModule.forRoot(config),
  readiness: [KafkaHealth, PostgresHealth],
  consumers: (app) =>
    projectionTransport(
      app,
      { app: 'projector', concurrency: PROJECTOR_PARTITIONS_IN_FLIGHT, ...ProjectionRouting.of(app) },
      [
        ...PROJECTIONS,
        // Deploy tokens are identity rows: they stay in the shared database, whatever the tenant's route.
        ...TENANCY_PROJECTIONS.map((projection) => ({ ...projection, routing: 'shared' as const })),
      ],
    ),
  // The app's error filter rethrows non-HTTP errors, so a failing batch reaches the runner unchanged,
  // is rolled back and retried.
  consumersInheritAppConfig: true,
};

export const startProjector = (config: ProjectorConfig, options?: BootOptions) => bootApp(projector, config, options);

if (require.main === module) runApp(projector, projectorConfigFromEnv);
