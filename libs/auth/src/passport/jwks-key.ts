import { decodeProtectedHeader, JWSHeaderParameters, KeyLike } from 'jose';

/** A key set as jose builds it (local or remote JWKS): the key matching a header's `kid`, `alg` and key type. */
export type KeySet = (header: JWSHeaderParameters) => Promise<KeyLike | Uint8Array> | KeyLike | Uint8Array;

type KeyDone = (error: Error | null, key?: string | Buffer) => void;

/**
 * passport-jwt's `secretOrKeyProvider` over a key set: the key is chosen by the token's `kid` among the
 * set's keys of the pinned algorithm only, never by the token's own `alg`, so a token naming another
 * algorithm finds no key. A token with critical header extensions is refused, as jose refuses them.
 */
export function keyFromSet(keys: () => KeySet | null, algorithm: 'ES256') {
  return (_request: unknown, rawToken: string, done: KeyDone): void => {
    void (async () => {
      const set = keys();
      if (!set) throw new Error('no key set configured');
      const header = decodeProtectedHeader(rawToken);
      if (header.crit !== undefined) throw new Error('critical header extensions are not supported');
      // jose 5 returns a KeyObject on Node, which jsonwebtoken takes as a public key.
      return (await set({ kid: header.kid, alg: algorithm })) as unknown as Buffer;
    })().then(
      (key) => done(null, key),
      (error: Error) => done(error),
    );
  };
}
