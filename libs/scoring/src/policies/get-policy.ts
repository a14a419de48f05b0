import { TenantData } from '@agentwatch/cells';
import { HttpException } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { customerNotFound } from '../http/api-errors';
import { readPolicy } from './policy-store';
import { PolicyResponse, respond } from './save-policy';

/** GET /policies/{customer_id}: the current version; 404 while none was set. */
export class GetPolicy extends Query<PolicyResponse> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
  ) {
    super();
  }
}

@QueryHandler(GetPolicy)
export class GetPolicyHandler implements IQueryHandler<GetPolicy> {
  constructor(private readonly db: TenantData) {}

  async execute({ orgId, customerId }: GetPolicy): Promise<PolicyResponse> {
    if (customerId !== orgId) throw customerNotFound();
    const stored = await this.db.run(orgId, (q) => readPolicy(q, orgId));
    if (!stored) throw new HttpException({ error: 'Policy not found' }, 404);
    return respond(stored);
  }
}
