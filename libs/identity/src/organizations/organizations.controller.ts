import { Authenticated, CurrentIdentity, Identity } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody } from '@agentwatch/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreateOrganization, createOrganizationBody } from './create-organization';

@ApiTags('organizations')
@Controller('v1/tenant')
export class OrganizationsController {
  constructor(private readonly commands: CommandBus) {}

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
  @ApiAnswers(200, '`{id, name, created_at}`', [400])
  create(@CurrentIdentity() identity: Identity, @Body() body: unknown) {
    return this.commands.execute(new CreateOrganization(identity, body));
  }
}
