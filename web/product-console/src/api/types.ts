// The answers the console reads, from the APIs' generated documents (web/api, `npm run openapi`).
// The few answers those documents do not type yet are declared here, narrowly, after the server code
// (libs/identity, libs/scoring): replace each with its generated type once it is there.
import type { FetchResponse } from 'openapi-fetch';
import type { operations as CloudOps } from '../../../api/cloud';
import type { operations as ScoringOps } from '../../../api/scoring';
import type { PolicyDocument } from '../domain/policy';

/** The body of an operation's success answer, exactly as the client's `data` types it. */
// biome-ignore lint/suspicious/noExplicitAny: FetchResponse's own constraint.
type Ok<Op extends Record<string | number, any>> = NonNullable<
  FetchResponse<Op, object, `${string}/${string}`>['data']
>;

export type EventPage = Ok<CloudOps['EventsController_list']>;
export type EventView = EventPage['events'][number];
export type EventDetail = Ok<CloudOps['EventsController_get']>;
export type EventStats = Ok<CloudOps['EventsController_stats']>;

export type SessionPage = Ok<CloudOps['SessionsController_list']>;
export type SessionView = SessionPage['sessions'][number];
export type SessionDetail = Ok<CloudOps['SessionsController_get']>;
export type SessionChildren = Ok<CloudOps['SessionsController_children']>;
export type SessionEventPage = Ok<CloudOps['SessionsController_events']>;

export type AgentPage = Ok<CloudOps['DaemonController_agents']>;

type DeployTokenList = Ok<CloudOps['DeployTokensController_list']>;
export type DeployTokenView = DeployTokenList['deploy_tokens'][number];
export type CreatedDeployToken = Ok<CloudOps['DeployTokensController_create']>;

export type ScoreDetail = Ok<ScoringOps['ScoresController_detail']>;
export type Justification = Ok<ScoringOps['ScoresController_justification']>;
export type PolicyWrapper = Ok<ScoringOps['PoliciesController_get']>;

// Not typed by the generated documents yet (their 200/201 answers have no schema there).

export interface Tenant {
  id: string;
  name: string;
  created_at: string;
}

export interface MachineView {
  machine_id: string;
  hostname: string | null;
  os: string | null;
  arch: string | null;
  daemon_version: string | null;
  token_prefix: string;
  deploy_token_id: string | null;
  registered_at: string;
  rotated_at: string;
  first_ingest_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  customer_id: string;
}

export interface PolicyVersion {
  version: number;
  policies: PolicyDocument;
  updated_at: string;
}
