import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { Context, OperatorCommand } from '../domain/commands';
import { decide } from '../domain/flow';
import { parseTenantRequest, TenantRequest } from '../domain/tenant-request';
import { appendToFlow, flowsOfSlug, loadFlow } from '../journal/journal';
import { flowSummaryView, pollUrl, refuse, streamUrl } from '../tenant-flows';

/** The 202 answer: the new flow's state (`requested`) and where to follow it. */
export const requestedTenant = flowSummaryView.pick({ slug: true, state: true, poll_url: true, stream_url: true });
type RequestedTenant = z.infer<typeof requestedTenant>;

/** POST /v1/tenants: opens an onboard flow for the slug, refused while a live one exists. */
export class RequestTenant extends Command<RequestedTenant> {
  constructor(
    readonly ctx: Context,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(RequestTenant)
export class RequestTenantHandler implements ICommandHandler<RequestTenant> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ ctx, body }: RequestTenant): Promise<RequestedTenant> {
    const verdict = parseTenantRequest(body);
    if (!verdict.ok) refuse(verdict);
    const request = (verdict as { value: TenantRequest }).value;
    const flowId = uuidv7();
    const state = await this.dataSource.transaction(async (tx) => {
      const { onboard } = await flowsOfSlug(tx, request.slug);
      const live = onboard?.live ? (await loadFlow(tx, onboard.stream_id)).state : null;
      const command: OperatorCommand = {
        type: 'RequestTenant',
        flowId,
        tenantId: flowId,
        // A new organization every time: a slug provisioned again inherits none of the old tenant's
        // data or credentials (a slug-derived id would hand them over).
        orgId: randomUUID(),
        request,
      };
      return appendToFlow(tx, flowId, 0, null, decide(command, live, ctx));
    });
    return { slug: state.slug, state: state.status, poll_url: pollUrl(state.slug), stream_url: streamUrl(state.slug) };
  }
}
