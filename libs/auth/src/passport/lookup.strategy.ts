import { Strategy } from 'passport-strategy';

type Verify = (raw: string, done: (error: unknown, principal?: unknown) => void) => void;

/**
 * A credential checked by looking it up (deploy, machine and ingest tokens, scoring API keys), on
 * passport-strategy's base class: `extract` reads the raw value from the request, the verify
 * callback (the subclass's `validate`, through ScopedStrategy) resolves it or returns null.
 */
export class LookupStrategy extends Strategy {
  constructor(
    private readonly extract: (request: never) => string | null | undefined,
    private readonly verify: Verify,
  ) {
    super();
  }

  override authenticate(request: never): void {
    const raw = this.extract(request);
    if (!raw) {
      this.fail(401);
      return;
    }
    this.verify(raw, (error, principal) => {
      if (error) this.error(error as Error);
      else if (principal) this.success(principal);
      else this.fail(401);
    });
  }
}
