import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { NoSuchFlow } from '../domain/errors';
import { flowsOfSlug } from '../journal/journal';
import { tenantDetail } from '../tenant-flows';

/** GET /v1/tenants/{slug}: the onboard flow's detail, with the offboard flow as `deprovision`. */
export class GetTenant extends Query<ReturnType<typeof tenantDetail>> {
  constructor(readonly slug: string) {
    super();
  }
}

@QueryHandler(GetTenant)
export class GetTenantHandler implements IQueryHandler<GetTenant> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ slug }: GetTenant) {
    const { onboard, offboard } = await flowsOfSlug(this.dataSource.manager, slug);
    if (!onboard) throw new NoSuchFlow(`no tenant ${slug}`);
    return tenantDetail(onboard, offboard);
  }
}
