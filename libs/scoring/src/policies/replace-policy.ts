import { TenantData } from '@agentwatch/cells';
import { EventPublisher } from '@agentwatch/kafka';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { PolicyResponse, savePolicy } from './save-policy';

/** PUT /policies/{customer_id}: a new version; omitted fields reset to their defaults. */
export class ReplacePolicy extends Command<PolicyResponse> {
  constructor(
    readonly orgId: string,
    readonly customerId: string,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(ReplacePolicy)
export class ReplacePolicyHandler implements ICommandHandler<ReplacePolicy> {
  constructor(
    private readonly db: TenantData,
    private readonly publisher: EventPublisher,
  ) {}

  execute(command: ReplacePolicy): Promise<PolicyResponse> {
    return savePolicy(this.db, this.publisher, command, 'replace');
  }
}
