import { devIssuerOf } from '@agentwatch/dev-oidc';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleServerOptions, REDIRECT_PATH } from './console-server.options';

@ApiTags('console')
@Controller()
export class ConsoleSettingsController {
  constructor(private readonly options: ConsoleServerOptions) {}

  @Get('config.json')
  @ApiOkResponse({
    description:
      'The SPA’s run-time settings `{issuer, client_id, scope, redirect_path}`: the configured identity provider, ' +
      'or this console’s development provider at the origin the browser used.',
  })
  settings(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { issuer, clientId, scope } = this.options.oidc;
    const resolved = issuer ?? devIssuerOf(request);
    if (resolved === null) {
      void reply.status(400).send({ error: 'a Host header naming this console is required' });
      return;
    }
    void reply
      .header('cache-control', 'no-store')
      .send({ issuer: resolved, client_id: clientId, scope, redirect_path: REDIRECT_PATH });
  }
}
