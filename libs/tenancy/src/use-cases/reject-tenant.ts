import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Context } from '../domain/commands';
import { TenancySettings } from '../tenancy.settings';
import { decideOnCurrent, FlowSummary } from '../tenant-flows';

/** POST /v1/tenants/{slug}/reject: the current flow ends in `rejected`. */
export class RejectTenant extends Command<FlowSummary> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
    readonly reason: string,
  ) {
    super();
  }
}

@CommandHandler(RejectTenant)
export class RejectTenantHandler implements ICommandHandler<RejectTenant> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  execute(command: RejectTenant): Promise<FlowSummary> {
    return decideOnCurrent(this.dataSource, this.settings, command, { type: 'RejectFlow', reason: command.reason });
  }
}
