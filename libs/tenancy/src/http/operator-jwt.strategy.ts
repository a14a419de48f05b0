import { keyFromSet, UNREGISTERED } from '@agentwatch/auth';
import { PassportStrategy } from '@nestjs/passport';
import { createRemoteJWKSet, JWTPayload } from 'jose';
import { Strategy as JwtStrategy } from 'passport-jwt';
import { OperatorAuthSettings } from '../tenancy.settings';
import { operatorKeys } from './dev-operator-issuer';

export const OPERATOR_STRATEGY = 'operator-jwt';

export interface Operator {
  id: string;
  role: 'operator' | 'viewer';
}

/** Only a compact JWS is looked at: anything else is refused before a key is fetched. */
const operatorBearer = (request: { headers: Record<string, unknown> }): string | null => {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  return /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)\s*$/.exec(header)?.[1] ?? null;
};

/**
 * Operator tokens: ES256 only, against the operator identity provider's key set (by `kid`), issuer
 * pinned; the client is pinned in `validate`, on `azp` when the provider sets it, else on the audience.
 */
export class OperatorJwtStrategy extends PassportStrategy(JwtStrategy, OPERATOR_STRATEGY) {
  constructor(private readonly settings: OperatorAuthSettings) {
    const keys = settings.jwksUrl
      ? createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 5_000 })
      : operatorKeys(settings);
    super({
      jwtFromRequest: operatorBearer as never,
      secretOrKeyProvider: keyFromSet(() => keys, 'ES256'),
      issuer: settings.issuer,
      algorithms: ['ES256'],
    });
  }

  validate(payload: JWTPayload): Operator | null {
    const { clientId, roleClaim } = this.settings;
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
    const client = typeof payload.azp === 'string' ? payload.azp === clientId : audiences.includes(clientId);
    if (!client) return null;
    if (payload.iat !== undefined && typeof payload.iat !== 'number') return null;
    const role = payload[roleClaim];
    const id = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
    if (id === null || (role !== 'operator' && role !== 'viewer')) return null;
    return { id, role };
  }

  getPassportInstance() {
    return UNREGISTERED;
  }
}
