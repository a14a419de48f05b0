import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { Context } from '../domain/commands';
import { decide } from '../domain/flow';
import { appendToFlow, FlowRow, loadFlow } from '../journal/journal';
import { FlowSummary, flowSummary, lockedFlows } from '../tenant-flows';

/** POST /v1/tenants/{slug}/deprovision: opens an offboard flow, pending an operator's approval. */
export class DeprovisionTenant extends Command<FlowSummary> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
    readonly justification: string,
  ) {
    super();
  }
}

@CommandHandler(DeprovisionTenant)
export class DeprovisionTenantHandler implements ICommandHandler<DeprovisionTenant> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ ctx, slug, justification }: DeprovisionTenant): Promise<FlowSummary> {
    const flowId = uuidv7();
    const state = await this.dataSource.transaction(async (tx) => {
      const { onboard, offboard } = await lockedFlows(tx, slug);
      const { state: prior } = await loadFlow(tx, (offboard?.live ? offboard : (onboard as FlowRow)).stream_id);
      const events = decide({ type: 'RequestDeprovision', flowId, justification }, prior, ctx);
      return appendToFlow(tx, flowId, 0, null, events);
    });
    return flowSummary(state);
  }
}
