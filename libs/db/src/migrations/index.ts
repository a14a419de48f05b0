import { Init1732233600000 } from './1732233600000-init';
import { Identity1732240000000 } from './1732240000000-identity';
import { Scoring1732320000000 } from './1732320000000-scoring';
import { Tenancy1732406400000 } from './1732406400000-tenancy';
import { EventHourlyCounts1732492800000 } from './1732492800000-event-hourly-counts';
import { EventRiskStripes1732579200000 } from './1732579200000-event-risk-stripes';
import { EventsFillfactor1732665600000 } from './1732665600000-events-fillfactor';
import { EventHourlyRisk1732752000000 } from './1732752000000-event-hourly-risk';
import { EventsHalfFillfactor1732838400000 } from './1732838400000-events-half-fillfactor';
import { EventsKnownRiskByJoin1732924800000 } from './1732924800000-events-known-risk-by-join';
import { ScoreDetailsAsJson1733011200000 } from './1733011200000-score-details-as-json';
import { RateLimitsUnlogged1733097600000 } from './1733097600000-rate-limits-unlogged';
import { EventRiskWaitingOnly1733184000000 } from './1733184000000-event-risk-waiting-only';
import { DeadLetterRedrives1733270400000 } from './1733270400000-dead-letter-redrives';
import { SessionMetadataTimes1733356800000 } from './1733356800000-session-metadata-times';
import { TenancyRouteDirectory1733360000000 } from './1733360000000-tenancy-route-directory';
import { CredentialLifetimes1733443200000 } from './1733443200000-credential-lifetimes';
import { ScoresReadByJoin1733529600000 } from './1733529600000-scores-read-by-join';
import { ScoreVerdicts1733616000000 } from './1733616000000-score-verdicts';

// Two schemas, one migration history. The product schema (organizations and identity, the ingest
// read models, scoring, the event counters, the dead-letter redrive ledger the projector's operators
// keep) is what every database serving tenants holds; the control plane's tables (tenancy_*) exist only
// in the shared database the control plane runs on. A tenant cell is migrated with the product set
// alone; the shared database with both (bootstrapDatabase's default), as it always has been.
//
// The files stay in libs/db rather than beside their contexts: the bootstrap (an infrastructure lib)
// runs them, and it may not import the context libs above it; the set a migration belongs to is the
// decision that matters, and it is made here, in one list each. Class names and `name`s never change:
// the typeorm `migrations` table of every existing database records them.

/** Every table a database serving tenants needs; migrating a tenant database runs these alone. */
export const PRODUCT_MIGRATIONS = [
  Init1732233600000,
  Identity1732240000000,
  Scoring1732320000000,
  EventHourlyCounts1732492800000,
  EventRiskStripes1732579200000,
  EventsFillfactor1732665600000,
  EventHourlyRisk1732752000000,
  EventsHalfFillfactor1732838400000,
  EventsKnownRiskByJoin1732924800000,
  ScoreDetailsAsJson1733011200000,
  RateLimitsUnlogged1733097600000,
  EventRiskWaitingOnly1733184000000,
  DeadLetterRedrives1733270400000,
  SessionMetadataTimes1733356800000,
  CredentialLifetimes1733443200000,
  ScoresReadByJoin1733529600000,
  ScoreVerdicts1733616000000,
];

/** The control plane's own tables: the shared database only. */
export const CONTROL_PLANE_MIGRATIONS = [Tenancy1732406400000, TenancyRouteDirectory1733360000000];

const timestampOf = (migration: { name: string }) => Number(migration.name.match(/\d{13}$/)?.[0]);

/**
 * The product schema this build needs: the newest product migration's timestamp, as a tenant
 * database's route records it (`schema_version`). A database behind it is not routed to.
 */
export const PRODUCT_SCHEMA_VERSION = String(Math.max(...PRODUCT_MIGRATIONS.map(timestampOf)));

/** Both sets in timestamp order: the order the shared database has always applied them in. */
export const MIGRATIONS = [...PRODUCT_MIGRATIONS, ...CONTROL_PLANE_MIGRATIONS].sort(
  (a, b) => timestampOf(a) - timestampOf(b),
);

/** Tables the API writes itself (commands, not projections); everything else it may only read. */
export const API_WRITABLE_TABLES = [
  'organizations',
  'deploy_tokens',
  'memberships',
  'machines',
  'ingest_rate_limits',
  'api_keys',
  'scoring_policies',
  'scoring_policy_versions',
];

/** Tables from which the API deletes rows (expired rate-limit windows). */
export const API_DELETABLE_TABLES = ['ingest_rate_limits'];

/** The control plane's own tables; its journal is append-only (no UPDATE or DELETE granted). */
export const CONTROL_PLANE_TABLES = [
  'tenancy_flows',
  'tenancy_timers',
  'tenancy_outbox',
  'tenancy_routes',
  'tenancy_tokens',
  'tenancy_checkins',
  'tenancy_data_keys',
  'projection_checkpoints',
];

/** Data keys: the control plane's alone; the data plane reads one through tenant_data_key(). */
export const CONTROL_PLANE_SECRETS = ['tenancy_data_keys'];

/**
 * The shared database's credential tables, and the column a tenant's rows are found by: the control
 * plane deletes a deprovisioned tenant's rows there (DELETE, and SELECT of that column alone).
 */
export const CONTROL_PLANE_ERASES: Record<string, string> = {
  organizations: 'id',
  memberships: 'org_id',
  deploy_tokens: 'org_id',
  machines: 'org_id',
  api_keys: 'org_id',
  ingest_rate_limits: 'key',
};
export const CONTROL_PLANE_JOURNAL = 'tenancy_journal';
