import { TenantData } from '@agentwatch/cells';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { customerNotFound } from '../http/api-errors';
import { readPolicyVersions } from './policy-store';
import { policyResponse } from './save-policy';

/**
 * One saved version: all seven fields as it saved them; `updated_at` is when it was saved, the one
 * GET answered while it was current.
 */
const policyVersionView = policyResponse.pick({ version: true, policies: true, updated_at: true });

/** GET /policies/{customer_id}/versions, newest first. */
export const policyVersionList = z.object({ versions: z.array(policyVersionView) });
export type PolicyVersionList = z.infer<typeof policyVersionList>;

/** GET /policies/{customer_id}/versions: every saved version, newest first; none yet is an empty list. */
export class ListPolicyVersions extends Query<PolicyVersionList> {
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

  async execute({ orgId, customerId }: ListPolicyVersions): Promise<PolicyVersionList> {
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
