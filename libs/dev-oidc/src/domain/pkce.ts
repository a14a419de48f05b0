import { createHash, timingSafeEqual } from 'node:crypto';

// RFC 7636: a verifier is 43–128 unreserved characters; an S256 challenge is the base64url SHA-256
// of it, always 43 characters. "plain" is refused: it would hand the verifier to the browser history.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const isWellFormedVerifier = (verifier: string): boolean => VERIFIER.test(verifier);
export const isWellFormedChallenge = (challenge: string): boolean => S256_CHALLENGE.test(challenge);

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether the verifier the token request brings hashes to the challenge the authorization request bound. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isWellFormedVerifier(verifier) || !isWellFormedChallenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256Challenge(verifier)), Buffer.from(challenge));
}
