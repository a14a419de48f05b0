import { randomBytes } from 'node:crypto';
import { SignedIn } from './domain/sign-in';
import { CodeBinding } from './domain/token-request';

export const CODE_TTL_MS = 60_000;
// A bound on memory: codes live a minute, so this many means a form posted in a loop.
const MAX_CODES = 10_000;

/** A code as issued: what it is bound to, who signed in, and what the tokens will say. */
export interface IssuedCode extends CodeBinding {
  issuer: string;
  scope: string;
  nonce?: string;
  user: SignedIn;
  /** Seconds since the epoch: the id token's auth_time. */
  authTime: number;
}

/**
 * Authorization codes in memory, each single-use and valid for a minute. A restart forgets them,
 * which only means signing in again. The clock and the randomness are passed in for tests.
 */
export class AuthorizationCodes {
  private readonly codes = new Map<string, IssuedCode & { expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => string = () => randomBytes(32).toString('base64url'),
  ) {}

  issue(grant: IssuedCode): string {
    this.sweep();
    if (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value as string);
    const code = this.random();
    this.codes.set(code, { ...grant, expiresAt: this.now() + CODE_TTL_MS });
    return code;
  }

  /** The first attempt to redeem a code removes it, whatever its outcome: a code is never tried twice. */
  take(code: string): IssuedCode | null {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.expiresAt <= this.now()) return null;
    const { expiresAt: _, ...issued } = grant;
    return issued;
  }

  private sweep(): void {
    const now = this.now();
    for (const [code, grant] of this.codes) if (grant.expiresAt <= now) this.codes.delete(code);
  }
}
