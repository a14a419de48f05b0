import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpException,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { API_KEY_HEADER, ApiKeyPrincipal, ApiKeyVerifier } from './api-keys';
import { headerValue } from './passport/bearer';
import { ScopedPassport } from './passport/scoped-passport';
import { API_KEY_STRATEGY, ApiKeyStrategy } from './strategies/api-key.strategy';

interface ApiKeyRequest {
  headers: Record<string, string | string[] | undefined>;
  apiKey?: ApiKeyPrincipal;
}

const unauthorized = (error: string) => new HttpException({ error }, 401);

@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly passport: ScopedPassport;

  constructor(keys: ApiKeyVerifier) {
    this.passport = new ScopedPassport({ [API_KEY_STRATEGY]: new ApiKeyStrategy(keys) });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<ApiKeyRequest>();
    if (!headerValue(request, API_KEY_HEADER)?.trim()) throw unauthorized('X-API-Key header required');
    const principal = await this.passport.authenticate<ApiKeyPrincipal>(
      [API_KEY_STRATEGY],
      request,
      http.getResponse(),
    );
    if (!principal) throw unauthorized('Invalid API key');
    request.apiKey = principal;
    return true;
  }
}

export const CurrentApiKey = createParamDecorator((_: unknown, ctx: ExecutionContext): ApiKeyPrincipal => {
  const principal = ctx.switchToHttp().getRequest<ApiKeyRequest>().apiKey;
  if (!principal) throw new Error('CurrentApiKey used on a route without @ApiKeyAuthenticated()');
  return principal;
});

/** The route takes a scoring API key in `X-API-Key`; the principal is the key's customer. */
export const ApiKeyAuthenticated = () =>
  applyDecorators(
    UseGuards(ApiKeyGuard),
    ApiHeader({ name: 'X-API-Key', required: true, description: 'API key bound to one customer' }),
    ApiUnauthorizedResponse({
      description: '`{"error":"X-API-Key header required"}` or `{"error":"Invalid API key"}`',
    }),
  );
