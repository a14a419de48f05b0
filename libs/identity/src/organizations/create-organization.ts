import { Identity, JwtIdentityResolver } from '@agentwatch/auth';
import { storable, validateBody } from '@agentwatch/contracts';
import { OrgScope } from '@agentwatch/db';
import { invalidBody } from '@agentwatch/http';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { insertOrganization, OrganizationView } from '../organizations';

export const createOrganizationBody = z.object({ name: storable(z.string().trim().min(1).max(200)) });

/** POST /v1/tenant: a new organization, with the caller as its member. */
export class CreateOrganization extends Command<OrganizationView> {
  constructor(
    readonly identity: Identity,
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(CreateOrganization)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganization> {
  constructor(
    private readonly db: OrgScope,
    private readonly identities: JwtIdentityResolver,
  ) {}

  async execute({ identity, body }: CreateOrganization): Promise<OrganizationView> {
    const validated = validateBody(createOrganizationBody, body);
    if (!validated.ok) throw invalidBody(validated.issues);
    const orgId = uuidv7();
    const subject = identity.subject!;
    const organization = await this.db.run(orgId, async (q) => {
      const created = await insertOrganization(q, orgId, validated.value.name);
      await q.query('INSERT INTO memberships (subject, org_id) VALUES ($1, $2)', [subject, orgId]);
      return created;
    });
    this.identities.remember(subject, orgId);
    return organization;
  }
}
