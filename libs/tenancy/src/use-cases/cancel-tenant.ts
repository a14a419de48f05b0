import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Context } from '../domain/commands';
import { TenancySettings } from '../tenancy.settings';
import { decideOnCurrent, FlowSummary } from '../tenant-flows';

/** POST /v1/tenants/{slug}/cancel: the current flow ends in `cancelled`; what it created is released. */
export class CancelTenant extends Command<FlowSummary> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
    readonly reason: string,
  ) {
    super();
  }
}

@CommandHandler(CancelTenant)
export class CancelTenantHandler implements ICommandHandler<CancelTenant> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  execute(command: CancelTenant): Promise<FlowSummary> {
    return decideOnCurrent(this.dataSource, this.settings, command, { type: 'CancelFlow', reason: command.reason });
  }
}
