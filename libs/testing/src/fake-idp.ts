import http from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, JWK, KeyLike, SignJWT } from 'jose';

export interface TokenOptions {
  /** Sign with a key that is NOT in the published key set (a forged token). */
  foreignKey?: boolean;
  kid?: string;
  issuer?: string;
  audience?: string | string[];
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  notBefore?: number;
}

/**
 * An identity provider's key set, served over real HTTP on loopback: ES256 keys published as a JWKS,
 * and tokens signed with them. Only what lives outside the system is faked; verifiers under test
 * fetch the key set exactly as they would from a real provider.
 */
export class FakeIdentityProvider {
  private constructor(
    private readonly server: http.Server,
    private readonly privateKey: KeyLike,
    private readonly foreignKey: KeyLike,
    readonly publicJwk: JWK,
    readonly kid: string,
    readonly issuer: string,
    readonly audience: string,
  ) {}

  static async start({ issuer, audience }: { issuer: string; audience: string }): Promise<FakeIdentityProvider> {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const foreign = await generateKeyPair('ES256');
    const kid = `test-${Math.random().toString(36).slice(2, 10)}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    const server = http.createServer((request, response) => {
      if (request.url === '/.well-known/jwks.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ keys: [publicJwk] }));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new FakeIdentityProvider(server, privateKey, foreign.privateKey, publicJwk, kid, issuer, audience);
  }

  get jwksUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  token(claims: Record<string, unknown>, options: TokenOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    let jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? this.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 600));
    if (options.notBefore !== undefined) jwt = jwt.setNotBefore(now + options.notBefore);
    return jwt.sign(options.foreignKey ? this.foreignKey : this.privateKey);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
