import { PayloadOpener, PayloadSealer, SEALED_HEADER } from '@agentwatch/kafka';
import { Injectable } from '@nestjs/common';
import { DataKeys } from './data-keys';
import { openValue, SEALED_V1, sealValue, UnreadableSealedValue } from './domain/sealed-value';

/** A record of a deprovisioned tenant is never appended again, sealed or not. */
export class ErasedOrganization extends Error {
  constructor(orgId: string) {
    super(`organization ${orgId} is deprovisioned: its records are erased and none is appended`);
  }
}

/** Seals the values of every organization that has a data key (AES-256-GCM, header `aw_sealed: v1`). */
@Injectable()
export class AesGcmPayloadSealer extends PayloadSealer {
  constructor(private readonly keys: DataKeys) {
    super();
  }

  async toSeal(orgIds: ReadonlySet<string>): Promise<ReadonlySet<string>> {
    const sealed = new Set<string>();
    const unknown: string[] = [];
    for (const orgId of orgIds) {
      const known = this.keys.cached(orgId);
      if (!known) unknown.push(orgId);
      else if (known.kind !== 'none') sealed.add(orgId);
    }
    if (unknown.length > 0) {
      for (const [orgId, key] of await this.keys.keysOf(unknown)) if (key.kind !== 'none') sealed.add(orgId);
    }
    return sealed;
  }

  async seal(orgId: string, value: string): Promise<{ value: string | Buffer; headers: Record<string, string> }> {
    const key = await this.keys.keyOf(orgId);
    switch (key.kind) {
      case 'none':
        return { value, headers: {} };
      case 'erased':
        throw new ErasedOrganization(orgId);
      case 'key':
        return { value: sealValue(key.key, value), headers: { [SEALED_HEADER]: SEALED_V1 } };
    }
  }
}

/**
 * Opens sealed values with their organization's key; a plain value is returned as it is. Null: the
 * key is gone (the tenant was deprovisioned), so the record is erased. A value that does not open
 * with an existing key, or an unknown scheme, throws: that is damage, not erasure.
 */
@Injectable()
export class AesGcmPayloadOpener extends PayloadOpener {
  constructor(private readonly keys: DataKeys) {
    super();
  }

  async open(orgId: string, value: Buffer, headers: Record<string, string | undefined>): Promise<string | null> {
    const scheme = headers[SEALED_HEADER];
    if (scheme === undefined) return value.toString('utf8');
    if (scheme !== SEALED_V1) throw new UnreadableSealedValue(`unknown sealing scheme ${SEALED_HEADER}: ${scheme}`);
    const key = this.keys.cached(orgId) ?? (await this.keys.keyOf(orgId));
    if (key.kind !== 'key') return null;
    return openValue(key.key, value.toString('ascii'));
  }
}
