import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Context } from '../domain/commands';
import { TenancySettings } from '../tenancy.settings';
import { decideOnCurrent, FlowSummary } from '../tenant-flows';

/** POST /v1/tenants/{slug}/approve: approves the current flow (the live offboard flow while one is open). */
export class ApproveTenant extends Command<FlowSummary> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
  ) {
    super();
  }
}

@CommandHandler(ApproveTenant)
export class ApproveTenantHandler implements ICommandHandler<ApproveTenant> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  execute(command: ApproveTenant): Promise<FlowSummary> {
    return decideOnCurrent(this.dataSource, this.settings, command, { type: 'ApproveFlow' });
  }
}
