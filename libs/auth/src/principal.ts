import { createParamDecorator, ExecutionContext } from '@nestjs/common';

export type CredentialKind = 'deploy-token' | 'service-token' | 'jwt';

/** Who is calling, as established by the credential guard: every data access is scoped to orgId. */
export interface Principal {
  orgId: string;
  credential: CredentialKind;
  credentialId: string;
  /** The enrolled machine behind a service token. */
  machineId: string | null;
  /** The JWT subject. */
  subject: string | null;
}

/** A verified JWT whose organization is not known yet (before POST /v1/tenant). */
export type Identity = Omit<Principal, 'orgId'> & { orgId: string | null };

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: Identity;
}

const principalOf = (ctx: ExecutionContext): Identity => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('principal read on a route without @Authenticated()');
  return principal;
};

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = principalOf(ctx);
  if (principal.orgId === null) throw new Error('route reads an organization it does not require');
  return principal as Principal;
});

export const CurrentIdentity = createParamDecorator((_: unknown, ctx: ExecutionContext): Identity => principalOf(ctx));
