/**
 * Crypto-shredding on the log: the value of a provisioned tenant's record is sealed with the
 * tenant's data key before it is appended, and the key is destroyed when the tenant is
 * deprovisioned, so every copy of its records on every topic becomes unreadable at once. The
 * implementation (keys from the control plane's directory, AES-256-GCM) lives in libs/cells; libs/kafka
 * only calls it where values are written and read.
 */

/** Header of a sealed value: the sealing scheme's version. CloudEvents and org headers stay plain. */
export const SEALED_HEADER = 'aw_sealed';

export abstract class PayloadSealer {
  /**
   * The organizations among these whose values go through seal(): asked once per produce call, so
   * an organization without a data key costs the producer a set lookup per record and nothing more.
   */
  abstract toSeal(orgIds: ReadonlySet<string>): Promise<ReadonlySet<string>>;

  /**
   * The value to append for this organization: sealed (with the header to add) when the organization
   * has a data key, as it is otherwise.
   */
  abstract seal(orgId: string, value: string): Promise<{ value: string | Buffer; headers: Record<string, string> }>;
}

export abstract class PayloadOpener {
  /**
   * The plain value of a record read from a topic; null when it is sealed with a key that no longer
   * exists (its tenant was deprovisioned: the record is erased and must be skipped, never applied).
   * `headers` holds the record's SEALED_HEADER, the one header an opener reads.
   */
  abstract open(orgId: string, value: Buffer, headers: Record<string, string | undefined>): Promise<string | null>;
}
