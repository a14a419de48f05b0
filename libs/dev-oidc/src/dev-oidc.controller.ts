import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Answer, answerHeaders, DevIdentityProvider } from './dev-identity-provider';
import { Params } from './domain/params';
import { DEV_OIDC_PATH, requestOrigin } from './request-origin';
import { SIGN_IN_PAGE_POLICY } from './sign-in-page';

/** The development provider's routes under /oidc; each reads the browser's origin and delegates. */
@ApiExcludeController()
@Controller('oidc')
export class DevOidcController {
  constructor(private readonly provider: DevIdentityProvider) {}

  @Get('.well-known/openid-configuration')
  discovery(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    answer(reply, request, (origin) => ({ status: 200, json: this.provider.discovery(`${origin}${DEV_OIDC_PATH}`) }));
  }

  @Get('jwks')
  jwks(@Res() reply: FastifyReply) {
    void reply.header('cache-control', 'no-cache').send(this.provider.jwks());
  }

  @Get('authorize')
  authorizePage(@Req() request: FastifyRequest, @Query() query: Params, @Res() reply: FastifyReply) {
    answer(reply, request, (origin) => this.provider.signInPage(query, origin));
  }

  @Post('authorize')
  authorize(@Req() request: FastifyRequest, @Body() body: Params | undefined, @Res() reply: FastifyReply) {
    answer(reply, request, (origin) => this.provider.signIn(body ?? {}, origin));
  }

  @Post('token')
  async token(@Body() body: Params | undefined, @Res() reply: FastifyReply) {
    send(reply, await this.provider.token(body ?? {}));
  }

  @Get('end-session')
  endSession(@Req() request: FastifyRequest, @Query() query: Params, @Res() reply: FastifyReply) {
    answer(reply, request, (origin) => this.provider.endSession(query, origin));
  }
}

function answer(reply: FastifyReply, request: FastifyRequest, route: (origin: string) => Answer): void {
  const origin = requestOrigin(request);
  if (origin === null) {
    void reply.status(400).send({ error: 'invalid_request', error_description: 'a Host header naming this console' });
    return;
  }
  send(reply, route(origin));
}

function send(reply: FastifyReply, answer: Answer): void {
  void reply.status(answer.status).headers(answerHeaders(answer));
  if ('location' in answer) void reply.redirect(answer.location, 302);
  else if ('html' in answer) {
    void reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', SIGN_IN_PAGE_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(answer.html);
  } else void reply.send(answer.json);
}
