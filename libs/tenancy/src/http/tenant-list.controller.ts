import { responseSchema } from '@agentwatch/http';
import { Controller, Get, Query, UseFilters } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { LISTABLE_STATES, MAX_TENANT_PAGE, parseTenantListQuery } from '../domain/tenant-list-query';
import { ListTenants, tenantListView } from '../use-cases/list-tenants';
import { DomainErrorFilter } from './domain-error.filter';
import { OperatorAccess } from './operator-auth';

// Beside TenantsController rather than in it: the list is the operator console's, the rest spec 002's.
@ApiTags('tenants')
@Controller('v1/tenants')
@UseFilters(DomainErrorFilter)
export class TenantListController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @OperatorAccess('read')
  @ApiOperation({
    summary: 'List tenants, newest request first',
    description:
      'One entry per slug, the tenant `GET /v1/tenants/{slug}` shows. `state`, `presentation` and `updated_at` are those of ' +
      'its live offboard flow while a deprovision is open (`flow_kind: "offboard"`), otherwise of its provisioning flow.',
  })
  @ApiQuery({ name: 'state', required: false, enum: LISTABLE_STATES, description: 'only tenants showing this state' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_TENANT_PAGE } })
  @ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description: '`next_cursor` of the previous page, unchanged',
  })
  @ApiOkResponse({
    description:
      '`{tenants:[{slug, name, flow_kind, state, presentation, region, plan_tier, requested_by, requested_at, updated_at}], ' +
      'next_cursor}`; `next_cursor` is null on the last page.',
    schema: responseSchema(tenantListView),
  })
  @ApiBadRequestResponse({
    description:
      '`{"error":"bad_request","detail":"state: one of …"}`, `"limit: an integer from 1 to 1000"`, ' +
      '`"cursor: not a next_cursor this API issued"` or `"<name>: unknown parameter"`.',
  })
  list(@Query() query: Record<string, unknown>) {
    return this.queries.execute(new ListTenants(parseTenantListQuery(query)));
  }
}
