import { TenantData } from '@agentwatch/cells';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { customerNotFound } from '../http/api-errors';
import { readPolicyVersions, StoredVersion } from './policy-store';

export interface PolicyVersionView {
  version: number;
  policies: StoredVersion['policies'];
  /** When this version was saved: the `updated_at` GET answered while it was current. */
  updated_at: string;
}

/** GET /policies/{customer_id}/versions: every saved version, newest first; none yet is an empty list. */
export class ListPolicyVersions extends Query<{ versions: PolicyVersionView[] }> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

@QueryHandler(ListPolicyVersions)
export class ListPolicyVersionsHandler implements IQueryHandler<ListPolicyVersions> {
  constructor(private readonly db: TenantData) {}

  async execute({ orgId, customerId }: ListPolicyVersions): Promise<{ versions: PolicyVersionView[] }> {
    if (customerId !== orgId) throw customerNotFound();
    const versions = await this.db.run(orgId, (q) => readPolicyVersions(q, orgId));
    return {
      versions: versions.map((v) => ({
        version: v.version,
        policies: v.policies,
        updated_at: v.changedAt.toISOString(),
      })),
    };
  }
}
