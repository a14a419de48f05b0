// The query of GET /v1/tenants (docs/api/control-plane.md, "Listing tenants"): an optional state, a
// page size and a keyset cursor. Everything a client sends is judged here, so the SQL binds only a
// known state, an integer and an instant with a UUID; each refusal names the parameter at fault.

import { BadRequest } from './errors';
import { OFFBOARD_STATES } from './offboard';
import { ONBOARD_STATES } from './onboard';

export const DEFAULT_TENANT_PAGE = 100;
export const MAX_TENANT_PAGE = 1000;

/** Every state a listed tenant can show: its provisioning flow's, or its live offboard flow's. */
export const LISTABLE_STATES: readonly string[] = [...new Set<string>([...ONBOARD_STATES, ...OFFBOARD_STATES])];

/** Position after a page's last tenant, in list order: newest request first, ties by flow id. */
export interface TenantCursor {
  requestedAt: Date;
  flowId: string;
}

export interface TenantListQuery {
  state: string | null;
  limit: number;
  after: TenantCursor | null;
}

const PARAMETERS = ['state', 'limit', 'cursor'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,200}$/;

export const encodeTenantCursor = ({ requestedAt, flowId }: TenantCursor): string =>
  Buffer.from(JSON.stringify([requestedAt.toISOString(), flowId])).toString('base64url');

function decodeTenantCursor(raw: string): TenantCursor {
  const refused = new BadRequest('cursor: not a next_cursor this API issued');
  if (!BASE64URL.test(raw)) throw refused;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw refused;
  const [at, flowId] = decoded;
  if (typeof at !== 'string' || !ISO_INSTANT.test(at) || typeof flowId !== 'string' || !UUID.test(flowId))
    throw refused;
  const requestedAt = new Date(at);
  // The round trip refuses impossible dates (2026-02-30) that the pattern lets through.
  if (Number.isNaN(requestedAt.getTime()) || requestedAt.toISOString() !== at) throw refused;
  return { requestedAt, flowId };
}

/** Query parameters as the HTTP layer parsed them; a repeated parameter arrives as an array and is refused. */
export function parseTenantListQuery(query: Record<string, unknown>): TenantListQuery {
  const unknown = Object.keys(query).filter((name) => !PARAMETERS.includes(name));
  if (unknown.length > 0) throw new BadRequest(unknown.map((name) => `${name}: unknown parameter`).join('; '));
  const { state, limit, cursor } = query;
  if (state !== undefined && (typeof state !== 'string' || !LISTABLE_STATES.includes(state))) {
    throw new BadRequest(`state: one of ${LISTABLE_STATES.join(', ')}`);
  }
  let size = DEFAULT_TENANT_PAGE;
  if (limit !== undefined) {
    size = typeof limit === 'string' && /^\d{1,4}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(size >= 1 && size <= MAX_TENANT_PAGE)) {
      throw new BadRequest(`limit: an integer from 1 to ${MAX_TENANT_PAGE}`);
    }
  }
  if (cursor !== undefined && typeof cursor !== 'string') throw new BadRequest('cursor: a single value');
  return {
    state: (state as string | undefined) ?? null,
    limit: size,
    after: cursor === undefined || cursor === '' ? null : decodeTenantCursor(cursor),
  };
}
