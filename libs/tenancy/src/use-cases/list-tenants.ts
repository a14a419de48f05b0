import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { FlowState, presentation } from '../domain/flow';
import { OffboardState } from '../domain/offboard';
import { OnboardState } from '../domain/onboard';
import { encodeTenantCursor, TenantListQuery } from '../domain/tenant-list-query';
import { tenantRequestSchema } from '../domain/tenant-request';
import { flowSummaryView } from '../tenant-flows';

/**
 * One tenant of the list: `flow_kind` says which flow `state`, `presentation` and `updated_at` are of,
 * the live offboard flow while there is one; the request's fields are null in a flow recorded without them.
 */
const tenantListItem = flowSummaryView.pick({ slug: true, flow_kind: true, state: true, presentation: true }).extend({
  name: z.string().nullable(),
  region: z.string().nullable(),
  plan_tier: tenantRequestSchema.shape.plan_tier.nullable(),
  requested_by: z.string(),
  requested_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
type TenantListItem = z.infer<typeof tenantListItem>;

/** GET /v1/tenants, newest request first; `next_cursor` is null on the last page. */
export const tenantListView = z.object({ tenants: z.array(tenantListItem), next_cursor: z.string().nullable() });
export type TenantList = z.infer<typeof tenantListView>;

// One row per slug: the provisioning flow GET /v1/tenants/{slug} shows (the live one, else the newest),
// with its live offboard flow if any (at most one, by a unique index). The state filter applies to the
// state shown, so `?state=deprovisioning` finds the tenants being offboarded. One statement per page.
const PAGE = `
  WITH current AS (
    SELECT DISTINCT ON (slug) stream_id, state, detail, created_at
      FROM tenancy_flows
     WHERE kind = 'onboard'
     ORDER BY slug, live DESC, created_at DESC
  )
  SELECT c.stream_id, c.created_at, c.detail AS onboard, o.detail AS offboard
    FROM current c
    LEFT JOIN tenancy_flows o ON o.tenant_id = c.stream_id AND o.kind = 'offboard' AND o.live
   WHERE ($1::text IS NULL OR COALESCE(o.state, c.state) = $1)
     AND ($2::timestamptz IS NULL OR (c.created_at, c.stream_id) < ($2::timestamptz, $3::uuid))
   ORDER BY c.created_at DESC, c.stream_id DESC
   LIMIT $4`;

interface PageRow {
  stream_id: string;
  created_at: Date;
  onboard: OnboardState;
  offboard: OffboardState | null;
}

function toItem({ onboard, offboard }: PageRow): TenantListItem {
  const shown: FlowState = offboard ?? onboard;
  return {
    slug: onboard.slug,
    name: onboard.request?.name ?? null,
    flow_kind: shown.kind,
    state: shown.status,
    presentation: presentation(shown),
    region: onboard.request?.region ?? null,
    plan_tier: onboard.request?.plan_tier ?? null,
    requested_by: onboard.requester,
    requested_at: onboard.requestedAt,
    updated_at: shown.updatedAt,
  };
}

/** GET /v1/tenants: the tenants' current state from the flows' read model, newest request first. */
export class ListTenants extends Query<TenantList> {
  constructor(readonly query: TenantListQuery) {
    super();
  }
}

@QueryHandler(ListTenants)
export class ListTenantsHandler implements IQueryHandler<ListTenants> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ query: { state, limit, after } }: ListTenants): Promise<TenantList> {
    const rows: PageRow[] = await this.dataSource.query(PAGE, [
      state,
      after?.requestedAt ?? null,
      after?.flowId ?? null,
      limit + 1,
    ]);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      tenants: page.map(toItem),
      next_cursor:
        rows.length > limit ? encodeTenantCursor({ requestedAt: last.created_at, flowId: last.stream_id }) : null,
    };
  }
}
