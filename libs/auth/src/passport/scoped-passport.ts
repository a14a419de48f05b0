import { Authenticator, Passport, PassportStatic, Strategy } from 'passport';

/**
 * What a strategy's `getPassportInstance()` returns in place of @nestjs/passport's default, passport's
 * process-wide registry: that registry is keyed by name, so two apps in one process (the test suites
 * start several, each with its own issuers and pools) would all authenticate with whichever instance
 * was built last. Each guard registers its strategies in a Passport of its own instead (ScopedPassport).
 */
export const UNREGISTERED = { use: () => UNREGISTERED } as unknown as PassportStatic;

/**
 * One guard's strategies by name, tried in the order `authenticate` names them (passport's
 * multi-strategy authenticate: the first success wins, a failure moves on, an error stops at once).
 */
export class ScopedPassport {
  private readonly passport: Authenticator = new Passport() as unknown as Authenticator;

  constructor(strategies: Record<string, object>) {
    for (const [name, strategy] of Object.entries(strategies)) this.passport.use(name, strategy as Strategy);
  }

  /** The verified principal, or null when every named strategy failed. */
  authenticate<T>(names: string[], request: unknown, response: unknown): Promise<T | null> {
    return new Promise((resolve, reject) => {
      const middleware = this.passport.authenticate(names, { session: false }, (error: unknown, user: unknown) =>
        error ? reject(error) : resolve((user || null) as T | null),
      ) as (request: unknown, response: unknown, next: (error?: unknown) => void) => void;
      middleware(request, response, (error?: unknown) => reject(error ?? new Error('passport called next()')));
    });
  }
}
