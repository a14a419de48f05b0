import { Authenticated, CurrentPrincipal, Principal } from '@agentwatch/auth';
import { ApiAnswers, ApiJsonBody } from '@agentwatch/http';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListMachines } from './list-machines';
import { machineList, registeredMachine, revokedMachine } from './machine-view';
import { RegisterMachine, registerMachineBody } from './register-machine';
import { RevokeMachine } from './revoke-machine';

@ApiTags('machines')
@Controller('v1/machines')
export class MachinesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: 'List enrolled machines',
    description:
      '`{machines:[{machine_id, hostname, os, arch, daemon_version, token_prefix, deploy_token_id, registered_at, rotated_at, ' +
      'first_ingest_at, last_seen_at, revoked_at}]}`, oldest enrollment first, revoked machines included; never the service ' +
      'token or its hash. `last_seen_at`: the registration, or a use of its service token (kept at most every 30 s).',
  })
  @ApiAnswers(200, '`{machines}`', [], machineList)
  list(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new ListMachines(principal.orgId));
  }

  @Post('register')
  @HttpCode(200)
  @Authenticated(['deploy-token'])
  @ApiJsonBody(registerMachineBody)
  @ApiOperation({
    summary: 'Enroll a machine',
    description:
      'With a deploy token (the enrollment token): body `{machine_id, hostname?, os?, arch?, daemon_version?}` → 200 ' +
      '`{machine_id, service_token, org_id}`. The svc_machine_… service token is long-lived, shown once, accepted wherever a ' +
      'deploy token is, and revocable; registering the same machine_id again rotates it (the old one stops working). ' +
      'Registration publishes a check-in on ingest.checkins.v1.',
  })
  @ApiAnswers(200, '`{machine_id, service_token, org_id}`', [400], registeredMachine)
  register(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.commands.execute(new RegisterMachine(principal, body));
  }

  @Delete(':machineId')
  @Authenticated(['jwt'])
  @ApiOperation({
    summary: "Revoke a machine's service token",
    description: '200 `{machine_id, revoked_at}`; 404 for an unknown machine.',
  })
  @ApiAnswers(200, '`{machine_id, revoked_at}`', [404], revokedMachine)
  revoke(@CurrentPrincipal() principal: Principal, @Param('machineId') machineId: string) {
    return this.commands.execute(new RevokeMachine(principal.orgId, machineId));
  }
}
