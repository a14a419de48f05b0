import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The `aw_sealed` header's value for this scheme. */
export const SEALED_V1 = 'v1';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** The sealed value does not open with this key (another key, or altered bytes): never taken for plain. */
export class UnreadableSealedValue extends Error {}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`a data key has ${KEY_BYTES} bytes, got ${key.length}`);
}

// The organization id is authenticated with the value: a sealed value copied under another
// organization's headers does not open.
const associatedData = (orgId: string) => Buffer.from(`agentwatch/${SEALED_V1}/${orgId}`, 'utf8');

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
export function sealValue(key: Buffer, orgId: string, plain: string): string {
  assertKey(key);
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(orgId));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function openValue(key: Buffer, orgId: string, sealed: string): string {
  assertKey(key);
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new UnreadableSealedValue('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(orgId));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new UnreadableSealedValue(`sealed value of organization ${orgId} does not open with its data key`);
  }
}
