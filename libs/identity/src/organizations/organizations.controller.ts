import { Authenticated, CurrentIdentity, Identity } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody } from '@agentwatch/http';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { organizationView } from '../organizations';
import { CreateOrganization, createOrganizationBody } from './create-organization';
import { GetOrganization } from './get-organization';

@ApiTags('organizations')
@Controller('v1/tenant')
export class OrganizationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @Authenticated(['jwt'], { organizationRequired: false })
  @ApiJsonBody(createOrganizationBody)
  @ApiOperation({
    summary: 'Create an organization',
    description:
      'Body `{name}` (1–200 characters) → 200 `{id, name, created_at}`. The caller (JWT `sub`) becomes a member: ' +
      'a token without the organization claim then acts for its most recently joined organization.',
  })
  @ApiAnswers(200, '`{id, name, created_at}`', [400], organizationView)
  create(@CurrentIdentity() identity: Identity, @Body() body: unknown) {
    return this.commands.execute(new CreateOrganization(identity, body));
  }

  @Get()
  @Authenticated(['jwt'], { organizationRequired: false })
  @ApiOperation({
    summary: "The caller's organization",
    description:
      '200 `{id, name, created_at}` of the organization the JWT acts for (its organization claim, or its most recently ' +
      'joined organization); 404 `{"error":"Organization not found"}` while it belongs to none (create one with POST).',
  })
  @ApiAnswers(200, '`{id, name, created_at}`', [404], organizationView)
  get(@CurrentIdentity() identity: Identity) {
    return this.queries.execute(new GetOrganization(identity.orgId));
  }
}
