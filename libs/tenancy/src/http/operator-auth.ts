import { ScopedPassport } from '@agentwatch/auth';
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
import { TenancySettings } from '../tenancy.settings';
import { OPERATOR_STRATEGY, Operator, OperatorJwtStrategy } from './operator-jwt.strategy';

export type { Operator } from './operator-jwt.strategy';

/** Every authentication failure answers exactly this (spec §5.5): no hint which check failed, never 401. */
export const FORBIDDEN_BODY = { error: 'forbidden', detail: 'a valid operator token is required' } as const;
export const WRITE_FORBIDDEN_BODY = { error: 'forbidden', detail: 'the operator role is required for this route' };

const ACCESS = 'agentwatch:operator-access';

/** The operator strategy in this guard's own ScopedPassport; a missing, malformed or invalid token fails it alike. */
@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly passport: ScopedPassport;

  constructor(
    private readonly reflector: Reflector,
    settings: TenancySettings,
  ) {
    this.passport = new ScopedPassport({ [OPERATOR_STRATEGY]: new OperatorJwtStrategy(settings.operator) });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.get<'read' | 'write'>(ACCESS, context.getHandler()) ?? 'write';
    const http = context.switchToHttp();
    const request = http.getRequest<{ headers: Record<string, unknown>; operator?: Operator }>();
    const operator = await this.passport.authenticate<Operator>([OPERATOR_STRATEGY], request, http.getResponse());
    if (!operator) throw new HttpException(FORBIDDEN_BODY, 403);
    if (access === 'write' && operator.role !== 'operator') throw new HttpException(WRITE_FORBIDDEN_BODY, 403);
    request.operator = operator;
    return true;
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
