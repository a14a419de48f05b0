import { PassportStrategy } from '@nestjs/passport';
import { ApiKeyPrincipal, ApiKeyVerifier } from '../api-keys';
import { headerValue } from '../passport/bearer';
import { LookupStrategy } from '../passport/lookup.strategy';
import { UNREGISTERED } from '../passport/scoped-passport';

export const API_KEY_STRATEGY = 'api-key';

/** The scoring API's `X-API-Key`, by SHA-256 lookup; the principal is the customer the key is bound to. */
export class ApiKeyStrategy extends PassportStrategy(LookupStrategy, API_KEY_STRATEGY) {
  constructor(private readonly keys: ApiKeyVerifier) {
    super((request: { headers: Record<string, string | string[] | undefined> }) =>
      headerValue(request, 'x-api-key')?.trim(),
    );
  }

  validate(raw: string): Promise<ApiKeyPrincipal | null> {
    return this.keys.verify(raw);
  }

  getPassportInstance() {
    return UNREGISTERED;
  }
}
