import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Context } from '../domain/commands';
import { TenancySettings } from '../tenancy.settings';
import { decideOnCurrent, FlowSummary } from '../tenant-flows';

/** POST /v1/tenants/{slug}/resume: the paused step of the current flow runs again with a fresh retry budget. */
export class ResumeTenant extends Command<FlowSummary> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
  ) {
    super();
  }
}

@CommandHandler(ResumeTenant)
export class ResumeTenantHandler implements ICommandHandler<ResumeTenant> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: TenancySettings,
  ) {}

  execute(command: ResumeTenant): Promise<FlowSummary> {
    return decideOnCurrent(this.dataSource, this.settings, command, { type: 'ResumeFlow' });
  }
}
