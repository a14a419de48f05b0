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
import { serviceTokenKind } from './domain/deploy-token';
import { JwtVerifier } from './jwt.verifier';
import { JwtIdentityResolver } from './jwt-identity.resolver';
import { AuthenticatedRequest, Identity } from './principal';
import { ServiceTokenVerifier } from './service-token.verifier';

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

@Injectable()
export class CredentialGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly serviceTokens: ServiceTokenVerifier,
    private readonly jwts: JwtVerifier,
    private readonly identities: JwtIdentityResolver,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.reflector.get<RouteAuth>(ROUTE_AUTH, context.getHandler());
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (header === undefined || header === '') throw unauthorized('Authorization header required');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(Array.isArray(header) ? header[0] : header);
    if (!match) throw unauthorized('Invalid token');
    const principal = await this.identify(match[1], route.accept);
    if (!principal) throw unauthorized('Invalid token');
    if (principal.orgId === null && route.organizationRequired)
      throw new HttpException({ error: NO_ORGANIZATION }, 403);
    request.principal = principal;
    return true;
  }

  private async identify(raw: string, accept: AcceptedCredential[]): Promise<Identity | null> {
    const kind = serviceTokenKind(raw);
    if (kind) return accept.includes(kind) ? this.serviceTokens.verify(raw) : null;
    if (!accept.includes('jwt')) return null;
    const claims = await this.jwts.verify(raw);
    return claims ? this.identities.resolve(claims) : null;
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
