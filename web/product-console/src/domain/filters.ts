export const ACTION_TYPES = ['PROCESS_EXEC', 'FILE_READ', 'FILE_WRITE', 'FILE_DELETE', 'NETWORK_CONNECT'] as const;

export const SESSION_STATES = ['active', 'idle', 'ended'] as const;

export const EVENT_FILTERS = [
  'agent_id',
  'session_id',
  'action_type',
  'tool_name',
  'min_risk',
  'max_risk',
  'decision',
  'since',
  'end_time',
] as const;

export const SESSION_FILTERS = ['state', 'platform', 'parent_id', 'root_only', 'since', 'end_time'] as const;

export type Filters<K extends string> = Partial<Record<K, string>>;

/** The filters a URL's query string holds: known keys only, blank values left out. */
export function filtersFrom<K extends string>(params: URLSearchParams, keys: readonly K[]): Filters<K> {
  const filters: Filters<K> = {};
  for (const key of keys) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/** The query string with `changes` applied: a blank or null value removes its key. */
export function withParams(
  params: URLSearchParams,
  changes: Record<string, string | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value.trim() === '') next.delete(key);
    else next.set(key, value.trim());
  }
  return next;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function riskError(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 100 ? undefined : 'an integer from 0 to 100';
}

function timeError(value: string | undefined): string | undefined {
  return value === undefined || !Number.isNaN(Date.parse(value)) ? undefined : 'a date and time';
}

/** What the API would refuse in a filter, said before asking it; an empty object when nothing. */
export function filterErrors(filters: Filters<(typeof EVENT_FILTERS)[number] | 'parent_id'>): Record<string, string> {
  const errors: Record<string, string | undefined> = {
    session_id: filters.session_id && !UUID.test(filters.session_id) ? 'a session id (UUID)' : undefined,
    parent_id: filters.parent_id && !UUID.test(filters.parent_id) ? 'a session id (UUID)' : undefined,
    min_risk: riskError(filters.min_risk),
    max_risk: riskError(filters.max_risk),
    since: timeError(filters.since),
    end_time: timeError(filters.end_time),
  };
  if (!errors.min_risk && !errors.max_risk && filters.min_risk && filters.max_risk) {
    if (Number(filters.min_risk) > Number(filters.max_risk)) errors.max_risk = 'at least the minimum risk';
  }
  if (!errors.since && !errors.end_time && filters.since && filters.end_time) {
    if (Date.parse(filters.since) > Date.parse(filters.end_time)) errors.end_time = 'after the start of the window';
  }
  return Object.fromEntries(Object.entries(errors).filter(([, error]) => error !== undefined)) as Record<
    string,
    string
  >;
}
