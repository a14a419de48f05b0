import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  HttpException,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AuthConfig } from './auth.config';
import { serviceTokenKind } from './domain/deploy-token';
import { JwtIdentityResolver } from './jwt-identity.resolver';
import { bearerCredential, headerValue } from './passport/bearer';
import { ScopedPassport } from './passport/scoped-passport';
import { AuthenticatedRequest, Identity } from './principal';
import { ServiceTokenVerifier } from './service-token.verifier';
import { ES256_STRATEGY, Es256Strategy, HS256_STRATEGY, Hs256Strategy } from './strategies/product-jwt.strategies';
import { ServiceTokenStrategy } from './strategies/service-token.strategies';

/** Daemon credentials (deploy tokens, per-machine service tokens) and identity-provider JWTs. */
export type AcceptedCredential = 'deploy-token' | 'service-token' | 'jwt';

/** Wherever a deploy token works, a machine's service token works too. */
export const DAEMON_OR_USER: AcceptedCredential[] = ['deploy-token', 'service-token', 'jwt'];

interface RouteAuth {
  accept: AcceptedCredential[];
  organizationRequired: boolean;
}

const ROUTE_AUTH = 'agentwatch:route-auth';

export const unauthorized = (error: 'Authorization header required' | 'Invalid token') =>
  new HttpException({ error }, 401);

export const NO_ORGANIZATION =
  'This identity belongs to no organization: create one with POST /v1/tenant, or use a token with the organization claim';

/**
 * Every credential of the cloud API is a passport strategy of this guard's own ScopedPassport; a route
 * names the kinds it accepts and passport tries their strategies in that order (for a JWT, ES256 then
 * the HS256 fallback). Which strategy failed is never told: the body is the spec's fixed one.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  private readonly passport: ScopedPassport;
  private readonly jwtStrategies: string[];

  constructor(
    private readonly reflector: Reflector,
    config: AuthConfig,
    serviceTokens: ServiceTokenVerifier,
    identities: JwtIdentityResolver,
  ) {
    const { hs256Secret } = config;
    this.passport = new ScopedPassport({
      'deploy-token': new ServiceTokenStrategy('deploy-token', serviceTokens),
      'service-token': new ServiceTokenStrategy('service-token', serviceTokens),
      [ES256_STRATEGY]: new Es256Strategy(config, identities),
      ...(hs256Secret ? { [HS256_STRATEGY]: new Hs256Strategy({ ...config, hs256Secret }, identities) } : {}),
    });
    this.jwtStrategies = hs256Secret ? [ES256_STRATEGY, HS256_STRATEGY] : [ES256_STRATEGY];
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RouteAuth>(ROUTE_AUTH, context.getHandler());
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    if (!headerValue(request, 'authorization')) throw unauthorized('Authorization header required');
    const strategies = this.strategiesFor(route.accept, bearerCredential(request));
    const principal =
      strategies.length > 0
        ? await this.passport.authenticate<Identity>(strategies, request, http.getResponse())
        : null;
    if (!principal) throw unauthorized('Invalid token');
    if (principal.orgId === null && route.organizationRequired)
      throw new HttpException({ error: NO_ORGANIZATION }, 403);
    request.principal = principal;
    return true;
  }

  /**
   * The route's strategies that could verify this credential. A service token's prefix names its kind
   * and no other strategy accepts it, so a daemon's request tries one strategy, not every failing one
   * before it (passport's failure path is a measurable part of an ingest request).
   */
  private strategiesFor(accept: AcceptedCredential[], raw: string | null): string[] {
    const kind = raw ? serviceTokenKind(raw) : null;
    if (kind) return accept.includes(kind) ? [kind] : [];
    return accept.includes('jwt') ? this.jwtStrategies : [];
  }
}

/**
 * The route's accepted credentials, stated where the route is declared (STYLE.md item 6).
 * `organizationRequired: false` admits a verified JWT that belongs to no organization yet.
 */
export const Authenticated = (accept: AcceptedCredential[], { organizationRequired = true } = {}) =>
  applyDecorators(
    SetMetadata(ROUTE_AUTH, { accept, organizationRequired } satisfies RouteAuth),
    UseGuards(CredentialGuard),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({
      description:
        '`{"error":"Authorization header required"}`, or `{"error":"Invalid token"}` for a credential that does not verify, ' +
        'including a JWT whose organization claim names no organization of this service',
    }),
    ...(organizationRequired
      ? [ApiForbiddenResponse({ description: `A JWT of no organization: \`{"error":"${NO_ORGANIZATION}"}\`` })]
      : []),
  );
