import { SignedIn } from './domain/sign-in';
import { SignInForm } from './sign-in-page';

// An abstract class rather than an interface so that it doubles as the Nest injection token.
export abstract class DevOidcOptions {
  /** The console's one public client. */
  abstract clientId: string;
  /** The development issuer's key dir: its key signs the id tokens and is served at /oidc/jwks. */
  abstract keyDir: string;
  abstract form: SignInForm;
  /** The access token the API behind the console already trusts from its development issuer. */
  abstract accessToken(user: SignedIn, ttlSeconds: number): Promise<string>;
  /** Claims of the id token beyond sub, email and name (the operator's role). */
  abstract idTokenClaims(user: SignedIn): Record<string, unknown>;
}

/** Both tokens live an hour; there is no refresh token: the console signs in again. */
export const TOKEN_TTL_SECONDS = 3600;
