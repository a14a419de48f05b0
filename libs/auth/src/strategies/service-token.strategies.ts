import { PassportStrategy } from '@nestjs/passport';
import { ServiceTokenKind, serviceTokenKind } from '../domain/deploy-token';
import { bearerCredential } from '../passport/bearer';
import { LookupStrategy } from '../passport/lookup.strategy';
import { UNREGISTERED } from '../passport/scoped-passport';
import { Principal } from '../principal';
import { ServiceTokenVerifier } from '../service-token.verifier';

/**
 * A daemon credential of one kind, by SHA-256 lookup. A tenant's ingest token, minted by the control
 * plane, is a deploy token (`svc_deploy_`) projected into deploy_tokens, so the deploy-token strategy
 * is the ingest-token strategy too.
 */
export class ServiceTokenStrategy extends PassportStrategy(LookupStrategy) {
  constructor(
    private readonly kind: ServiceTokenKind,
    private readonly tokens: ServiceTokenVerifier,
  ) {
    super(bearerCredential);
  }

  // A token of another kind fails here without a query; the next strategy named on the route may take it.
  async validate(raw: string): Promise<Principal | null> {
    return serviceTokenKind(raw) === this.kind ? this.tokens.verify(raw) : null;
  }

  getPassportInstance() {
    return UNREGISTERED;
  }
}
