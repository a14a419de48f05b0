import { TenantData } from '@agentwatch/cells';
import { EventPublisher } from '@agentwatch/kafka';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PolicyResponse, savePolicy } from './save-policy';

/** POST /policies/{customer_id}: the first version of the customer's policy; 409 when one exists. */
export class CreatePolicy extends Command<PolicyResponse> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(CreatePolicy)
export class CreatePolicyHandler implements ICommandHandler<CreatePolicy> {
  constructor(
    private readonly db: TenantData,
    private readonly publisher: EventPublisher,
  ) {}

  execute(command: CreatePolicy): Promise<PolicyResponse> {
    return savePolicy(this.db, this.publisher, command, 'create');
  }
}
