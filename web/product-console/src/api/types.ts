// The answers the console reads, from the APIs' generated documents (web/api, `npm run openapi`).
import type { FetchResponse } from 'openapi-fetch';
import type { operations as CloudOps } from '../../../api/cloud';
import type { operations as ScoringOps } from '../../../api/scoring';

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

export type Tenant = Ok<CloudOps['OrganizationsController_get']>;

export type MachineList = Ok<CloudOps['MachinesController_list']>;
export type MachineView = MachineList['machines'][number];

type DeployTokenList = Ok<CloudOps['DeployTokensController_list']>;
export type DeployTokenView = DeployTokenList['deploy_tokens'][number];
export type CreatedDeployToken = Ok<CloudOps['DeployTokensController_create']>;

export type ApiKeyList = Ok<CloudOps['ApiKeysController_list']>;
export type ApiKeyView = ApiKeyList['api_keys'][number];
export type CreatedApiKey = Ok<CloudOps['ApiKeysController_create']>;

export type ScoreDetail = Ok<ScoringOps['ScoresController_detail']>;
export type Justification = Ok<ScoringOps['ScoresController_justification']>;
export type PolicyWrapper = Ok<ScoringOps['PoliciesController_get']>;
export type PolicyVersions = Ok<ScoringOps['PoliciesController_versions']>;
export type PolicyVersion = PolicyVersions['versions'][number];
export type PolicyVerdict = Ok<ScoringOps['PoliciesController_validate']>;
