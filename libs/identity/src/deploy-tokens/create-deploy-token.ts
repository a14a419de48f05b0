import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { insertDeployToken } from '../organizations';
import { CreatedDeployTokenView } from './deploy-token-view';

export const createDeployTokenBody = z.object({ name: storable(z.string().trim().min(1).max(200)) });

/** POST /v1/deploy-tokens (JWT only): the raw token is in the answer once, only its hash is kept. */
export class CreateDeployToken extends Command<CreatedDeployTokenView> {
  constructor(
    readonly orgId: string,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(CreateDeployToken)
export class CreateDeployTokenHandler implements ICommandHandler<CreateDeployToken> {
  constructor(private readonly db: OrgScope) {}

  async execute({ orgId, body }: CreateDeployToken): Promise<CreatedDeployTokenView> {
    const validated = validateBody(createDeployTokenBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const created = await this.db.run(orgId, (q) => insertDeployToken(q, orgId, uuidv7(), validated.value.name));
    return { ...created, prefix: created.token.slice(0, 'svc_deploy_'.length + 6) };
  }
}
