import { createCipheriv, createDecipheriv, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

/** The `aw_sealed` header's value for this scheme. */
export const SEALED_V1 = 'v1';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The sealed value does not open with this key (another key, or altered bytes): never taken for plain. */
export class UnreadableSealedValue extends Error {}

/**
 * An organization's data key, ready to seal and open its values. Made once per key: turning the
 * key's bytes into a cipher key and the organization into its associated data on every value cost
 * more than a small value's encryption.
 */
export interface SealingKey {
  readonly orgId: string;
  readonly secret: KeyObject;
  /** The organization id is authenticated with the value: a value copied under another organization's headers does not open. */
  readonly associatedData: Buffer;
}

/** The key object holds a copy of the bytes: changing or zeroing the buffer later does not change it. */
export function sealingKeyOf(key: Buffer, orgId: string): SealingKey {
  if (key.length !== KEY_BYTES) throw new Error(`a data key has ${KEY_BYTES} bytes, got ${key.length}`);
  return {
    orgId,
    secret: createSecretKey(key),
    associatedData: Buffer.from(`agentwatch/${SEALED_V1}/${orgId}`, 'utf8'),
  };
}

// Each randomBytes call is a trip into OpenSSL that costs more than sealing a small value; drawn
// 4 KiB at a time (as crypto.randomUUID caches its entropy), an IV costs a slice. Every IV is still
// fresh CSPRNG output, used once: a drawn pool is never written again, only replaced.
const IV_POOL_BYTES = 4096;
let ivPool = Buffer.alloc(0);
let ivPoolUsed = 0;

function freshIv(): Buffer {
  if (ivPoolUsed + IV_BYTES > ivPool.length) {
    ivPool = randomBytes(IV_POOL_BYTES);
    ivPoolUsed = 0;
  }
  ivPoolUsed += IV_BYTES;
  return ivPool.subarray(ivPoolUsed - IV_BYTES, ivPoolUsed);
}

/**
 * AES-256-GCM with a random 12-byte IV per value. The record value is base64(iv ‖ tag ‖ ciphertext):
 * text, so kcat and `export` print it as it is stored.
 */
export function sealValue(key: SealingKey, plain: string): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key.secret, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(key.associatedData);
  const ciphertext = cipher.update(plain, 'utf8');
  const rest = cipher.final(); // empty for GCM, which is a stream cipher; joined all the same
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext, rest]).toString('base64');
}

export function openValue(key: SealingKey, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new UnreadableSealedValue('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key.secret, bytes.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(key.associatedData);
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    const plain = decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES));
    const rest = decipher.final();
    return (rest.length === 0 ? plain : Buffer.concat([plain, rest])).toString('utf8');
  } catch {
    throw new UnreadableSealedValue(`sealed value of organization ${key.orgId} does not open with its data key`);
  }
}
