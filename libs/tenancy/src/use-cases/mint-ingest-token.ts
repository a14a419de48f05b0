import { mintDeployToken } from '@agentwatch/auth';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { Context } from '../domain/commands';
import { decide, onboardOf } from '../domain/flow';
import { appendToFlow, FlowRow, loadFlow } from '../journal/journal';
import { enqueueToken, lockedFlows } from '../tenant-flows';

/** The answer: the raw token, shown this once. */
export const mintedIngestToken = z.object({
  token: z.string(),
  token_id: z.uuid(),
  prefix: z.string(),
  organization_id: z.uuid(),
  slug: z.string(),
  created_at: z.iso.datetime(),
});
export type MintedIngestToken = z.infer<typeof mintedIngestToken>;

/** POST /v1/tenants/{slug}/tokens: an ingest token for a db-ready tenant, published to become a deploy token. */
export class MintIngestToken extends Command<MintedIngestToken> {
  constructor(
    readonly ctx: Context,
    readonly slug: string,
  ) {
    super();
  }
}

@CommandHandler(MintIngestToken)
export class MintIngestTokenHandler implements ICommandHandler<MintIngestToken> {
  constructor(private readonly dataSource: DataSource) {}

  /** The raw token leaves this method once, in the answer; only its hash and prefix are kept. */
  async execute({ ctx, slug }: MintIngestToken): Promise<MintedIngestToken> {
    const tokenId = uuidv7();
    const minted = mintDeployToken();
    const state = await this.dataSource.transaction(async (tx) => {
      const onboard = (await lockedFlows(tx, slug)).onboard as FlowRow;
      const { state: prior, version } = await loadFlow(tx, onboard.stream_id);
      const events = decide({ type: 'MintIngestToken', tokenId, prefix: minted.prefix }, prior, ctx);
      const next = await appendToFlow(tx, onboard.stream_id, version, prior, events);
      await tx.query(
        `INSERT INTO tenancy_tokens (id, tenant_id, slug, org_id, token_hash, prefix, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [tokenId, next.tenantId, slug, next.orgId, minted.hash, minted.prefix, ctx.actor, ctx.now],
      );
      await enqueueToken(
        tx,
        onboardOf(next),
        { id: tokenId, token_hash: minted.hash, prefix: minted.prefix },
        'minted',
        ctx.now,
      );
      return next;
    });
    return {
      token: minted.raw,
      token_id: tokenId,
      prefix: minted.prefix,
      organization_id: state.orgId,
      slug,
      created_at: ctx.now,
    };
  }
}
