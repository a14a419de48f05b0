import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { z } from 'zod';
import { acceptedPolicy } from './save-policy';

/** What the dry run answers when PUT would accept the body; a refusal is PUT's own error answer. */
export const validPolicy = z.object({ valid: z.literal(true) });
export type ValidPolicy = z.infer<typeof validPolicy>;

/**
 * POST /policies/{customer_id}/validate: a dry run of PUT. The same judgement (acceptedPolicy), so
 * a refusal is the very status and body PUT would answer; nothing is stored or published, so it is
 * a query, and it reads no database either.
 */
export class ValidatePolicy extends Query<ValidPolicy> {
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
  async execute(query: ValidatePolicy): Promise<ValidPolicy> {
    acceptedPolicy(query);
    return { valid: true };
  }
}
