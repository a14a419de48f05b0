import { OrgScope } from '@agentwatch/db';
import { notFound } from '@agentwatch/http';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { OrganizationView } from '../organizations';

/**
 * GET /v1/tenant: the organization the caller's JWT acts for. A JWT of no organization yet is
 * answered 404 rather than 403, so a console can tell "create one first" from a refused token.
 */
export class GetOrganization extends Query<OrganizationView> {
  constructor(readonly orgId: string | null) {
    super();
  }
}

@QueryHandler(GetOrganization)
export class GetOrganizationHandler implements IQueryHandler<GetOrganization> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId }: GetOrganization): Promise<OrganizationView> {
    if (orgId === null) throw notFound('Organization');
    const [row] = await this.db.run(orgId, (q) =>
      q.query('SELECT id, name, created_at FROM organizations WHERE id = $1', [orgId]),
    );
    if (!row) throw notFound('Organization');
    return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
  }
}
