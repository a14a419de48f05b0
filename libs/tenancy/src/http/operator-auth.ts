import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  HttpException,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth, ApiForbiddenResponse } from '@nestjs/swagger';
import { createRemoteJWKSet, JWTPayload, jwtVerify } from 'jose';
import { TenancySettings } from '../tenancy.settings';
import { operatorKeys } from './dev-operator-issuer';

export interface Operator {
  id: string;
  role: 'operator' | 'viewer';
}

/** Every authentication failure answers exactly this (spec §5.5): no hint which check failed, never 401. */
export const FORBIDDEN_BODY = { error: 'forbidden', detail: 'a valid operator token is required' } as const;
export const WRITE_FORBIDDEN_BODY = { error: 'forbidden', detail: 'the operator role is required for this route' };

const ACCESS = 'agentwatch:operator-access';

@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly keys: ReturnType<typeof createRemoteJWKSet> | ReturnType<typeof operatorKeys>;

  constructor(
    private readonly reflector: Reflector,
    private readonly settings: TenancySettings,
  ) {
    this.keys = settings.operator.jwksUrl
      ? createRemoteJWKSet(new URL(settings.operator.jwksUrl), { cooldownDuration: 5_000 })
      : operatorKeys(settings.operator);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.get<'read' | 'write'>(ACCESS, context.getHandler()) ?? 'write';
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; operator?: Operator }>();
    const operator = await this.verify(request.headers.authorization);
    if (!operator) throw new HttpException(FORBIDDEN_BODY, 403);
    if (access === 'write' && operator.role !== 'operator') throw new HttpException(WRITE_FORBIDDEN_BODY, 403);
    request.operator = operator;
    return true;
  }

  private async verify(header: unknown): Promise<Operator | null> {
    if (typeof header !== 'string') return null;
    const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/.exec(header);
    if (!match) return null;
    const { issuer, clientId, roleClaim } = this.settings.operator;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(match[1], this.keys, { issuer, algorithms: ['ES256'] }));
    } catch {
      return null;
    }
    // Pinned to the operator client: `azp` when the provider sets it, else the audience.
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
    const client = typeof payload.azp === 'string' ? payload.azp === clientId : audiences.includes(clientId);
    if (!client) return null;
    const role = payload[roleClaim];
    const id = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
    if (id === null || (role !== 'operator' && role !== 'viewer')) return null;
    return { id, role };
  }
}

/** The route's access level, stated where it is declared: `read` for viewers too, `write` for operators. */
export const OperatorAccess = (access: 'read' | 'write') =>
  applyDecorators(
    SetMetadata(ACCESS, access),
    UseGuards(OperatorGuard),
    ApiBearerAuth(),
    ApiForbiddenResponse({
      description:
        'Missing, malformed, invalid or wrong-client token: always `{"error":"forbidden","detail":"a valid operator token is required"}`. ' +
        (access === 'write'
          ? 'A viewer token: `{"error":"forbidden","detail":"the operator role is required for this route"}`.'
          : ''),
    }),
  );

export const CurrentOperator = createParamDecorator((_: unknown, ctx: ExecutionContext): Operator => {
  const operator = ctx.switchToHttp().getRequest<{ operator?: Operator }>().operator;
  if (!operator) throw new Error('CurrentOperator used on a route without @OperatorAccess()');
  return operator;
});
