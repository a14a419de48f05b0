import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { acceptedPolicy } from './save-policy';

/**
 * POST /policies/{customer_id}/validate: a dry run of PUT. The same judgement (acceptedPolicy), so
 * a refusal is the very status and body PUT would answer; nothing is stored or published, so it is
 * a query, and it reads no database either.
 */
export class ValidatePolicy extends Query<{ valid: true }> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
    readonly body: unknown,
  ) {
    super();
  }
}

@QueryHandler(ValidatePolicy)
export class ValidatePolicyHandler implements IQueryHandler<ValidatePolicy> {
  async execute(query: ValidatePolicy): Promise<{ valid: true }> {
    acceptedPolicy(query);
    return { valid: true };
  }
}
