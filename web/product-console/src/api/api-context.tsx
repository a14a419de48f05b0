import type { Client } from 'openapi-fetch';
import { createContext, ReactNode, useContext } from 'react';
import type { paths as CloudPaths } from '../../../api/cloud';
import type { paths as ScoringPaths } from '../../../api/scoring';

export type CloudClient = Client<CloudPaths>;
type ScoringClient = Client<ScoringPaths>;

/** What every view reaches the APIs with: the cloud client (the user's token) and the scoring access (the session key). */
export interface Apis {
  cloud: CloudClient;
  scoring: ScoringClient;
  /** The organization id: the scoring API's customer_id. */
  customerId: string;
  /** The session key's id while one is held (scoring queries are keyed by it, so a new key refreshes them); null before. */
  sessionKeyId: string | null;
  /** The scoring API's credential header as its document declares it (the client also sets the newest key itself). */
  scoringHeader: { 'X-API-Key': string };
  /** Why the session key could not be created, if it could not. */
  sessionKeyError: Error | null;
}

const ApiContext = createContext<Apis | null>(null);

export function ApiProvider({ value, children }: { value: Apis; children: ReactNode }) {
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApis(): Apis {
  const apis = useContext(ApiContext);
  if (!apis) throw new Error('useApis outside ApiProvider');
  return apis;
}
